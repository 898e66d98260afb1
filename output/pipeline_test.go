package output

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// seqLines returns "from\n" … "to\n", like `seq from to`.
func seqLines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// runLimits feeds in to a Pipeline under lim (spilling to memory) and
// returns its Result and the spill. It also checks the Result against the
// invariants and the reference model.
func runLimits(t *testing.T, lim Limits, in string) (Result, *memSpill) {
	t.Helper()
	var sp memSpill
	p := New(Options{Limits: lim, Spill: sp.opener()})
	p.Write([]byte(in))
	p.Close()
	r := p.Result()
	var spilled []byte
	if sp.opened > 0 {
		spilled = append([]byte{}, sp.buf.Bytes()...)
	}
	checkPipeline(t, []byte(in), lim, SpillOnCut, r, spilled)
	return r, &sp
}

func TestStrategies(t *testing.T) {
	head := func(lines, bytes int) Limits { return Limits{Strategy: Head, MaxLines: lines, MaxBytes: bytes} }
	tail := func(lines, bytes int) Limits { return Limits{Strategy: Tail, MaxLines: lines, MaxBytes: bytes} }
	headTail := func(share float64, lines, bytes int) Limits {
		return Limits{Strategy: HeadTail, HeadShare: share, MaxLines: lines, MaxBytes: bytes}
	}
	long := strings.Repeat("y", 100)
	tests := []struct {
		name         string
		lim          Limits
		in           string
		head, tail   string
		by           string
		firstPartial bool
		lastPartial  bool
		omitted      int64
		lineBytes    int64
	}{
		{name: "head fits", lim: head(10, 100), in: seqLines(1, 10), head: seqLines(1, 10)},
		{name: "head line limit", lim: head(3, 100), in: seqLines(1, 10), head: seqLines(1, 3), by: ByLines, omitted: 7},
		{name: "head byte limit", lim: head(100, 5), in: seqLines(1, 10), head: seqLines(1, 2), by: ByBytes, omitted: 8},
		{name: "head both limits at once is lines", lim: head(2, 4), in: seqLines(1, 10), head: seqLines(1, 2), by: ByLines, omitted: 8},
		{name: "head last line without newline", lim: head(2, 100), in: "a\nb\nc", head: "a\nb\n", by: ByLines, omitted: 1},
		{name: "head first line partial", lim: head(10, 5), in: "abcdefgh\nx\n", head: "abcde", by: ByBytes, firstPartial: true, omitted: 1, lineBytes: 9},
		{name: "head partial keeps characters whole", lim: head(10, 5), in: "ééééé\n", head: "éé", by: ByBytes, firstPartial: true, lineBytes: 11},

		{name: "tail fits", lim: tail(10, 100), in: seqLines(1, 10), head: seqLines(1, 10)},
		{name: "tail line limit", lim: tail(3, 100), in: seqLines(1, 10), tail: seqLines(8, 10), by: ByLines, omitted: 7},
		{name: "tail byte limit", lim: tail(100, 6), in: seqLines(1, 10), tail: seqLines(9, 10), by: ByBytes, omitted: 8},
		{name: "tail both limits at once is lines", lim: tail(3, 7), in: seqLines(1, 10), tail: seqLines(8, 10), by: ByLines, omitted: 7},
		{name: "tail last line without newline", lim: tail(2, 100), in: "a\nb\nc", tail: "b\nc", by: ByLines, omitted: 1},
		{name: "tail last line partial", lim: tail(10, 10), in: "x\n" + long + "\n", tail: "yyyyyyyyy\n", by: ByBytes, lastPartial: true, omitted: 1, lineBytes: 101},
		{name: "tail last line partial, no newline", lim: tail(10, 10), in: "x\n" + long, tail: "yyyyyyyyyy", by: ByBytes, lastPartial: true, omitted: 1, lineBytes: 100},
		{name: "tail partial keeps characters whole", lim: tail(10, 5), in: "ééééé", tail: "éé", by: ByBytes, lastPartial: true, lineBytes: 10},
		{name: "tail ring cut mid-line drops that line", lim: tail(100, 8), in: "aaaaaaaaaaaaaaaa\nbb\ncc\n", tail: "bb\ncc\n", by: ByBytes, omitted: 1},

		{name: "head_tail fits", lim: headTail(0.4, 10, 100), in: seqLines(1, 10), head: seqLines(1, 10)},
		{name: "head_tail line limit", lim: headTail(0.4, 10, 1000), in: seqLines(1, 100), head: seqLines(1, 4), tail: seqLines(95, 100), by: ByLines, omitted: 90},
		{name: "head_tail byte limit", lim: headTail(0.5, 100, 20), in: seqLines(1, 100), head: seqLines(1, 5), tail: seqLines(98, 100), by: ByBytes, omitted: 92},
		{name: "head_tail share 0 is tail", lim: headTail(0, 3, 100), in: seqLines(1, 10), tail: seqLines(8, 10), by: ByLines, omitted: 7},
		{name: "head_tail share 1 is head", lim: headTail(1, 3, 100), in: seqLines(1, 10), head: seqLines(1, 3), by: ByLines, omitted: 7},
		{name: "head_tail unused head budget goes to the tail", lim: headTail(0.4, 10, 100), in: strings.Repeat("h", 50) + "\n" + seqLines(1, 60),
			tail: seqLines(51, 60), by: ByLines, omitted: 51},
		{name: "head_tail single huge line", lim: headTail(0.4, 10, 10), in: long, tail: "yyyyyyyyyy", by: ByBytes, lastPartial: true, lineBytes: 100},
		{name: "head_tail head only when the last line is too big", lim: headTail(0.5, 10, 20), in: seqLines(1, 8) + long, head: seqLines(1, 5), by: ByBytes, omitted: 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := runLimits(t, tt.lim, tt.in)
			tr := r.Truncation
			if r.Head != tt.head || r.Tail != tt.tail {
				t.Fatalf("got %q | %q, want %q | %q", r.Head, r.Tail, tt.head, tt.tail)
			}
			if tr.TruncatedBy != tt.by || tr.Truncated != (tt.by != "") {
				t.Errorf("truncated %v by %q, want by %q", tr.Truncated, tr.TruncatedBy, tt.by)
			}
			if tr.FirstLinePartial != tt.firstPartial || tr.LastLinePartial != tt.lastPartial {
				t.Errorf("partial first/last = %v/%v, want %v/%v", tr.FirstLinePartial, tr.LastLinePartial, tt.firstPartial, tt.lastPartial)
			}
			if r.OmittedLines != tt.omitted {
				t.Errorf("omitted %d lines, want %d", r.OmittedLines, tt.omitted)
			}
			if r.LineBytes != tt.lineBytes {
				t.Errorf("LineBytes %d, want %d", r.LineBytes, tt.lineBytes)
			}
		})
	}
}

func TestHeadTailText(t *testing.T) {
	r, _ := runLimits(t, Limits{Strategy: HeadTail, HeadShare: 0.4, MaxLines: 10, MaxBytes: 1000}, seqLines(1, 100))
	// Lines 5-94: five of 2 bytes, 85 of 3.
	want := seqLines(1, 4) + "[... 90 lines (265B) omitted ...]\n" + seqLines(95, 100)
	if r.Text() != want {
		t.Fatalf("Text() = %q, want %q", r.Text(), want)
	}
	if r.OmittedBytes != 265 {
		t.Errorf("OmittedBytes = %d, want 265", r.OmittedBytes)
	}
	// Tail strategy: no marker.
	r, _ = runLimits(t, Limits{Strategy: Tail, MaxLines: 3, MaxBytes: 1000}, seqLines(1, 100))
	if r.Text() != seqLines(98, 100) {
		t.Fatalf("tail Text() = %q", r.Text())
	}
}

// TestDocumentedNotice builds the example of docs/tools.md: 8500 lines under the bash
// defaults, 800 head lines and 800 tail lines cut by bytes.
func TestDocumentedNotice(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 8500; i++ {
		width := 24 // 25 bytes a line for the head: 800 lines = 20000 ≤ 20480
		if i > 7700 {
			width = 38 // 39 bytes: 800 lines = 31200 = 51200 - 20000
		}
		fmt.Fprintf(&b, "%-*d\n", width, i)
	}
	var sp memSpill
	p := New(Options{Limits: DefaultLimits, Spill: sp.opener()})
	p.Write([]byte(b.String()))
	p.Close()
	r := p.Result()
	r.FullOutputPath = "/tmp/spillway-123-abc/bash-3-stdout.log"
	want := "[stdout: showing lines 1-800 and 7701-8500 of 8500 (50.0KB limit). Full output: /tmp/spillway-123-abc/bash-3-stdout.log. To see what was cut: read it with offset=801 limit=6900]"
	if got := r.Notice("stdout"); got != want {
		t.Fatalf("notice\n got  %s\n want %s", got, want)
	}
	tr := r.Truncation
	if tr.TruncatedBy != ByBytes || tr.OutputLines != 1600 || tr.TotalLines != 8500 || tr.OutputBytes != 51200 {
		t.Fatalf("truncation %+v", tr)
	}
	if sp.buf.String() != b.String() {
		t.Fatal("spill does not hold the whole stream")
	}
}

func TestNotice(t *testing.T) {
	lim := func(s Strategy, lines, bytes, chars int) Limits {
		return Limits{Strategy: s, HeadShare: 0.5, MaxLines: lines, MaxBytes: bytes, MaxLineChars: chars}
	}
	tests := []struct {
		name  string
		lim   Limits
		in    string
		label string
		edit  func(*Result)
		want  string
	}{
		{name: "nothing cut", lim: lim(Head, 10, 100, 0), in: "a\n", label: "stdout", want: ""},
		{name: "head lines", lim: lim(Head, 3, 100, 0), in: seqLines(1, 10), label: "stdout",
			want: "[stdout: showing lines 1-3 of 10. Full output: /spill/test.log. To see what was cut: read it with offset=4 limit=7]"},
		{name: "tail bytes", lim: lim(Tail, 100, 6, 0), in: seqLines(1, 10), label: "stderr",
			want: "[stderr: showing lines 9-10 of 10 (6B limit). Full output: /spill/test.log. To see what was cut: read it with offset=1 limit=8]"},
		{name: "no label", lim: lim(Tail, 3, 100, 0), in: seqLines(1, 10),
			want: "[showing lines 8-10 of 10. Full output: /spill/test.log. To see what was cut: read it with offset=1 limit=7]"},
		{name: "head_tail", lim: lim(HeadTail, 4, 100, 0), in: seqLines(1, 10), label: "stdout",
			want: "[stdout: showing lines 1-2 and 9-10 of 10. Full output: /spill/test.log. To see what was cut: read it with offset=3 limit=6]"},
		{name: "first line partial", lim: lim(Head, 10, 5, 0), in: "abcdefgh\nx\n", label: "stdout",
			want: "[stdout: showing the first 5B of line 1 (line is 9B). Full output: /spill/test.log. To see what was cut: read it with offset=1 char_offset=5 limit=2]"},
		{name: "last line partial", lim: lim(Tail, 10, 2048, 0), in: "x\n" + strings.Repeat("y", 5000), label: "stdout",
			want: "[stdout: showing the last 2.0KB of line 2 (line is 4.9KB). Full output: /spill/test.log. To see what was cut: read it with offset=1 limit=2]"},
		{name: "lines cut only", lim: lim(Head, 10, 1000, 3), in: "abcdef\nok\nxyzxyz\n", label: "stdout",
			want: "[stdout: 2 lines cut at 3 chars. Full output: /spill/test.log. To see what was cut: read it with offset=1 char_offset=3 limit=3]"},
		{name: "lines and a cut line", lim: lim(Head, 2, 1000, 3), in: "abcdef\nok\nmore\n", label: "stdout",
			want: "[stdout: showing lines 1-2 of 3; 1 line cut at 3 chars. Full output: /spill/test.log. To see what was cut: read it with offset=1 char_offset=3 limit=3]"},
		{name: "one line cut", lim: lim(Head, 10, 1000, 3), in: "abcdef\n", label: "stdout",
			want: "[stdout: 1 line cut at 3 chars. Full output: /spill/test.log. To see what was cut: read it with offset=1 char_offset=3 limit=1]"},
		{name: "spill capped", lim: lim(Head, 3, 100, 0), in: seqLines(1, 10), label: "stdout",
			edit: func(r *Result) { r.SpillCapped, r.SpillCap = true, 100<<20 },
			want: "[stdout: showing lines 1-3 of 10. Full output: /spill/test.log (full output capped at 100.0MB). To see what was cut: read it with offset=4 limit=7]"},
		{name: "spill failed", lim: lim(Head, 3, 100, 0), in: seqLines(1, 10), label: "stdout",
			edit: func(r *Result) { r.FullOutputPath, r.SpillError = "", "mkdir /tmp/x: read-only file system" },
			want: "[stdout: showing lines 1-3 of 10. Full output could not be saved: mkdir /tmp/x: read-only file system]"},
		{name: "spill failed part way", lim: lim(Head, 3, 100, 0), in: seqLines(1, 10), label: "stdout",
			edit: func(r *Result) { r.SpillError = "write: no space left on device" },
			want: "[stdout: showing lines 1-3 of 10. Full output could not be saved: write: no space left on device (what was saved is in /spill/test.log). To see what was cut: read it with offset=4 limit=7]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := runLimits(t, tt.lim, tt.in)
			if tt.edit != nil {
				tt.edit(&r)
			}
			if got := r.Notice(tt.label); got != tt.want {
				t.Fatalf("notice\n got  %s\n want %s", got, tt.want)
			}
		})
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0B", 1023: "1023B", 1024: "1.0KB", 51200: "50.0KB", 30 * 1024: "30.0KB",
		1<<20 - 1: "1024.0KB", 1 << 20: "1.0MB", 100 << 20: "100.0MB", 1 << 30: "1.0GB", 5 << 30: "5.0GB",
	} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
	if got := OmissionMarker(6700, 40*1024); got != "[... 6700 lines (40.0KB) omitted ...]" {
		t.Errorf("OmissionMarker = %q", got)
	}
}

func TestSpillWhen(t *testing.T) {
	lim := Limits{Strategy: Tail, MaxLines: 10, MaxBytes: 100, MaxLineChars: 20}
	tests := []struct {
		name  string
		when  SpillWhen
		in    string
		spill bool
	}{
		{"on cut: fits", SpillOnCut, seqLines(1, 10), false},
		{"on cut: lines", SpillOnCut, seqLines(1, 11), true},
		{"on cut: bytes", SpillOnCut, strings.Repeat("abcdefghi\n", 10) + "x", true},
		{"on cut: line chars", SpillOnCut, strings.Repeat("c", 21) + "\n", true},
		{"past bytes: fits", SpillPastBytes, seqLines(1, 10), false},
		{"past bytes: lines only", SpillPastBytes, seqLines(1, 30), false},
		{"past bytes: line chars only", SpillPastBytes, strings.Repeat("c", 30) + "\n", false},
		{"past bytes: bytes", SpillPastBytes, strings.Repeat("abcdefghi\n", 11), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sp memSpill
			p := New(Options{Limits: lim, Spill: sp.opener(), SpillWhen: tt.when})
			chunked(p, []byte(tt.in), []byte{5, 1, 9})
			p.Close()
			r := p.Result()
			if (sp.opened == 1) != tt.spill || sp.opened > 1 {
				t.Fatalf("spill opened %d times, want spilled=%v", sp.opened, tt.spill)
			}
			if tt.spill && (sp.buf.String() != tt.in || r.FullOutputPath != sp.Path() || !sp.closed) {
				t.Fatalf("spill holds %q (closed %v), path %q", sp.buf.String(), sp.closed, r.FullOutputPath)
			}
			if !tt.spill && r.FullOutputPath != "" {
				t.Fatalf("FullOutputPath %q without a spill", r.FullOutputPath)
			}
			var spilled []byte
			if sp.opened > 0 {
				spilled = sp.buf.Bytes()
			}
			checkPipeline(t, []byte(tt.in), lim, tt.when, r, spilled)
		})
	}
}

// TestSpillFailure: an opener that fails leaves the result intact and the
// notice says why.
func TestSpillFailure(t *testing.T) {
	p := New(Options{Limits: Limits{Strategy: Tail, MaxLines: 2, MaxBytes: 100},
		Spill: func() (Spill, error) { return nil, errors.New("mkdir /ro/spillway-1-ab: read-only file system") }})
	p.Write([]byte(seqLines(1, 5)))
	p.Close()
	r := p.Result()
	if r.Tail != seqLines(4, 5) || r.FullOutputPath != "" {
		t.Fatalf("result %+v", r)
	}
	want := "[stdout: showing lines 4-5 of 5. Full output could not be saved: mkdir /ro/spillway-1-ab: read-only file system]"
	if got := r.Notice("stdout"); got != want {
		t.Fatalf("notice %q", got)
	}
}

// TestSpillCapped: a spill that reaches its cap keeps what came before,
// the pipeline stops writing to it, and the notice names the cap.
func TestSpillCapped(t *testing.T) {
	sp := memSpill{capAt: 10}
	p := New(Options{Limits: Limits{Strategy: Tail, MaxLines: 2, MaxBytes: 100}, Spill: sp.opener()})
	for i := 1; i <= 20; i++ {
		p.Write([]byte(seqLines(i, i)))
	}
	p.Close()
	r := p.Result()
	if sp.buf.String() != seqLines(1, 20)[:10] {
		t.Fatalf("spill holds %q", sp.buf.String())
	}
	if !r.SpillCapped || r.SpillCap != 10 || r.Tail != seqLines(19, 20) {
		t.Fatalf("result %+v", r)
	}
	if n := r.Notice("stdout"); !strings.HasSuffix(n, ". Full output: /spill/test.log (full output capped at 10B). To see what was cut: read it with offset=1 limit=18]") {
		t.Fatalf("notice %q", n)
	}
}

func TestCut(t *testing.T) {
	var sp memSpill
	p := New(Options{Limits: Limits{Strategy: Tail, MaxLines: 3, MaxBytes: 100}, Spill: sp.opener()})

	p.Write([]byte(seqLines(1, 2)))
	r := p.Cut()
	if r.Head != seqLines(1, 2) || r.FirstLine != 1 || r.LastLine != 2 || r.Truncation.Truncated {
		t.Fatalf("first window %+v", r)
	}

	p.Write([]byte(seqLines(3, 10)))
	r = p.Cut()
	if r.Tail != seqLines(8, 10) || r.FirstLine != 3 || r.LastLine != 10 || r.Truncation.TotalLines != 8 {
		t.Fatalf("second window %+v", r)
	}
	if n := r.Notice("stdout"); n != "[stdout: showing lines 8-10 of the new lines 3-10. Full output: /spill/test.log. To see what was cut: read it with offset=3 limit=5]" {
		t.Fatalf("second window notice %q", n)
	}

	// Nothing new: an empty window.
	r = p.Cut()
	if r.Head != "" || r.Tail != "" || r.Truncation.TotalLines != 0 || r.Truncation.Truncated {
		t.Fatalf("empty window %+v", r)
	}

	// The unfinished line is held by the sanitizer (a '\r' may still
	// overwrite it) and shows in the window where it ends.
	p.Write([]byte("11\n12"))
	r = p.Cut()
	if r.Head != "11\n" || r.FirstLine != 11 || r.LastLine != 11 {
		t.Fatalf("window before an unfinished line %+v", r)
	}
	p.Write([]byte("345\n13\n"))
	p.Close()
	r = p.Result()
	if r.Head != "12345\n13\n" || r.FirstLine != 12 || r.LastLine != 13 {
		t.Fatalf("last window %+v", r)
	}
	if got, want := sp.buf.String(), seqLines(1, 11)+"12345\n13\n"; got != want {
		t.Fatalf("spill %q, want %q", got, want)
	}
	if bytes, lines := p.Progress(); bytes != int64(len(seqLines(1, 11)+"12345\n13\n")) || lines != 13 {
		t.Fatalf("Progress() = %d, %d", bytes, lines)
	}
}

// TestCutLongLine: a line that the window shows partially is named by its
// stream line number and its whole size.
func TestCutLongLine(t *testing.T) {
	p := New(Options{Limits: Limits{Strategy: Tail, MaxLines: 3, MaxBytes: 10}})
	p.Write([]byte("a\nb\n"))
	p.Cut()
	p.Write([]byte(strings.Repeat("z", 100) + "\n"))
	p.Close()
	r := p.Result()
	if !r.Truncation.LastLinePartial || r.LastLine != 3 || r.LineBytes != 101 {
		t.Fatalf("result %+v", r)
	}
	if n := r.Notice(""); n != "[showing the last 10B of line 3 (line is 101B)]" {
		t.Fatalf("notice %q", n)
	}
}

func TestProgress(t *testing.T) {
	p := New(Options{Limits: DefaultLimits})
	p.Write([]byte("\x1b[31mred\x1b[0m\nmore\n")) // 18 raw bytes
	// Before the first 8 KiB decide text or binary, lines are counted in
	// the raw bytes held.
	if b, l := p.Progress(); b != 18 || l != 2 {
		t.Fatalf("Progress() before the sniff = %d bytes, %d lines; want 18, 2", b, l)
	}
	p.Write([]byte(strings.Repeat("x\n", 5000)))
	if b, l := p.Progress(); b != 18+10000 || l != 5002 {
		t.Fatalf("Progress() = %d bytes, %d lines; want %d, %d", b, l, 18+10000, 5002)
	}
}

func TestWriteAfterClose(t *testing.T) {
	p := New(Options{Limits: DefaultLimits})
	p.Write([]byte("a\n"))
	p.Close()
	if n, err := p.Write([]byte("b\n")); n != 0 || !errors.Is(err, ErrClosed) {
		t.Fatalf("Write after Close = %d, %v", n, err)
	}
	if p.Close() != nil {
		t.Fatal("second Close failed")
	}
	if r := p.Result(); r.Head != "a\n" {
		t.Fatalf("result %+v", r)
	}
}

func TestValidate(t *testing.T) {
	ok := DefaultLimits
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Limits{
		{Strategy: "middle", MaxLines: 1, MaxBytes: 1},
		{Strategy: Head, MaxLines: 0, MaxBytes: 1},
		{Strategy: Head, MaxLines: 1, MaxBytes: 0},
		{Strategy: Head, MaxLines: 1, MaxBytes: 1, MaxLineChars: -1},
		{Strategy: HeadTail, HeadShare: 1.5, MaxLines: 1, MaxBytes: 1},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v validated", bad)
		}
	}
}

// TestSnapshotDoesNotDisturb: Result may be called at any time (a timeout
// returns what came so far); the final Result is the same as without it.
func TestSnapshotDoesNotDisturb(t *testing.T) {
	in := []byte("\x1b[1mhead\x1b[0m\n" + seqLines(1, 5000) + "50%\r100%\n" + strings.Repeat("long ", 3000) + "\nend")
	lim := Limits{Strategy: HeadTail, HeadShare: 0.4, MaxLines: 100, MaxBytes: 2000, MaxLineChars: 100}
	var plainSpill, snapSpill memSpill
	plain := New(Options{Limits: lim, Spill: plainSpill.opener()})
	plain.Write(in)
	plain.Close()

	snap := New(Options{Limits: lim, Spill: snapSpill.opener()})
	for i := 0; i < len(in); i += 700 {
		snap.Write(in[i:min(i+700, len(in))])
		if r := snap.Result(); i >= sniffSize && r.Truncation.TotalLines == 0 {
			t.Fatalf("snapshot at %d shows no lines", i)
		}
	}
	snap.Close()
	if a, b := plain.Result(), snap.Result(); a.Text() != b.Text() || a.Truncation != b.Truncation || a.Notice("x") != b.Notice("x") {
		t.Fatalf("snapshots changed the result:\n %+v\n %+v", a.Truncation, b.Truncation)
	}
	if plainSpill.buf.String() != snapSpill.buf.String() {
		t.Fatal("snapshots changed the spill")
	}
}
