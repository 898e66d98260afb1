package output

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// The scenarios of the designs the profiles follow that concern the
// pipeline, as docs/profiles.md quotes and reconciles them.

// piBash is the pi design's bash truncation: tail, 2000 lines or 30KB.
var piBash = Limits{Strategy: Tail, MaxLines: 2000, MaxBytes: 30 * 1024}

// runDesign feeds in through a Pipeline in 64 KiB chunks and returns the
// Result and the spill.
func runDesign(t *testing.T, lim Limits, when SpillWhen, in string) (Result, *memSpill) {
	t.Helper()
	var sp memSpill
	p := New(Options{Limits: lim, Spill: sp.opener(), SpillWhen: when})
	for rest := in; rest != ""; {
		n := min(len(rest), 64<<10)
		p.Write([]byte(rest[:n]))
		rest = rest[n:]
	}
	p.Close()
	r := p.Result()
	var spilled []byte
	if sp.opened > 0 {
		spilled = append([]byte{}, sp.buf.Bytes()...)
	}
	checkPipeline(t, []byte(in), lim, when, r, spilled)
	return r, &sp
}

// The pi design, bash: "Hit line limit (2000 lines)".
func TestPiBashLineLimit(t *testing.T) {
	in := seqLines(1, 50000)
	r, sp := runDesign(t, piBash, SpillOnCut, in)
	tr := r.Truncation
	if !tr.Truncated || tr.TruncatedBy != ByLines || tr.OutputLines != 2000 || tr.TotalLines != 50000 {
		t.Fatalf("truncation %+v", tr)
	}
	if r.Text() != seqLines(48001, 50000) {
		t.Fatalf("text is not lines 48001-50000")
	}
	if want := "[stdout: showing lines 48001-50000 of 50000. Full output: /spill/test.log. To see what was cut: read it with offset=1 limit=48000]"; r.Notice("stdout") != want {
		t.Fatalf("notice %q, want %q", r.Notice("stdout"), want)
	}
	if r.FullOutputPath == "" || sp.buf.String() != in {
		t.Fatal("full output not spilled")
	}
}

// The pi design, bash: "Hit byte limit (< 2000 lines, 30KB)": lines 49501-50000.
func TestPiBashByteLimit(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 50000; i++ {
		switch {
		case i == 49500:
			fmt.Fprintf(&b, "%-299d\n", i) // 300 bytes: 500×61 + 300 > 30720
		case i > 49500:
			fmt.Fprintf(&b, "%-60d\n", i) // 61 bytes
		default:
			fmt.Fprintf(&b, "%d\n", i)
		}
	}
	r, _ := runDesign(t, piBash, SpillOnCut, b.String())
	tr := r.Truncation
	if tr.TruncatedBy != ByBytes || tr.OutputLines != 500 || tr.OutputBytes != 500*61 || tr.TotalLines != 50000 {
		t.Fatalf("truncation %+v", tr)
	}
	if want := "[stdout: showing lines 49501-50000 of 50000 (30.0KB limit). Full output: /spill/test.log. To see what was cut: read it with offset=1 limit=49500]"; r.Notice("stdout") != want {
		t.Fatalf("notice %q, want %q", r.Notice("stdout"), want)
	}
	if !strings.HasPrefix(r.Text(), "49501 ") || !strings.HasSuffix(r.Text(), "50000"+strings.Repeat(" ", 55)+"\n") {
		t.Fatalf("text %.40q … %q", r.Text(), r.Text()[len(r.Text())-70:])
	}
}

// The pi design, bash: "Last line alone > 30KB (edge case, partial OK here)".
func TestPiBashLastLineOverByteLimit(t *testing.T) {
	last := strings.Repeat("0123456789abcdef", 100*1024/16) // 100 KB, no newline
	in := seqLines(1, 49999) + last
	r, sp := runDesign(t, piBash, SpillOnCut, in)
	tr := r.Truncation
	if tr.TruncatedBy != ByBytes || !tr.LastLinePartial || tr.FirstLinePartial || tr.OutputLines != 1 || tr.OutputBytes != 30*1024 {
		t.Fatalf("truncation %+v", tr)
	}
	if r.Text() != last[len(last)-30*1024:] {
		t.Fatal("text is not the last 30KB of the final line")
	}
	if want := "[stdout: showing the last 30.0KB of line 50000 (line is 100.0KB). Full output: /spill/test.log. To see what was cut: read it with offset=1 limit=50000]"; r.Notice("stdout") != want {
		t.Fatalf("notice %q, want %q", r.Notice("stdout"), want)
	}
	if sp.buf.String() != in {
		t.Fatal("full output not spilled")
	}
}

// The pi design: under both limits nothing changes and no file is written.
func TestPiBashFits(t *testing.T) {
	in := seqLines(1, 2000)
	r, sp := runDesign(t, piBash, SpillOnCut, in)
	if r.Truncation.Truncated || r.Text() != in || sp.opened != 0 || r.Notice("stdout") != "" {
		t.Fatalf("result %+v, spill opened %d", r.Truncation, sp.opened)
	}
}

// pipeBash is the pipe design's bash truncation: tail, 2000 lines or 50KB, and a
// file only past the byte limit.
var pipeBash = Limits{Strategy: Tail, MaxLines: 2000, MaxBytes: 50 * 1024}

// The pipe design: "if a single line exceeds 50KB, take the tail of that line."
func TestPipeTailOfLongLine(t *testing.T) {
	line := strings.Repeat("é", 40*1024) + "END\n" // 80 KB of two-byte characters
	in := "first\nsecond\n" + line
	r, sp := runDesign(t, pipeBash, SpillPastBytes, in)
	tr := r.Truncation
	if !tr.LastLinePartial || tr.TruncatedBy != ByBytes || tr.TotalLines != 3 {
		t.Fatalf("truncation %+v", tr)
	}
	if !utf8.ValidString(r.Tail) || !strings.HasSuffix(r.Tail, "END\n") || !strings.HasSuffix(line, r.Tail) {
		t.Fatalf("tail is not the end of the long line: %.20q…", r.Tail)
	}
	// 50 KiB holds "END\n" and 25598 whole two-byte characters.
	if len(r.Tail) != 4+2*25598 {
		t.Fatalf("tail is %d bytes", len(r.Tail))
	}
	if sp.buf.String() != in {
		t.Fatal("full output not spilled")
	}
	if want := "[stdout: showing the last 50.0KB of line 3 (line is 80.0KB). Full output: /spill/test.log. To see what was cut: read it with offset=1 limit=3]"; r.Notice("stdout") != want {
		t.Fatalf("notice %q, want %q", r.Notice("stdout"), want)
	}
}

// The pipe design: a file only when the output passes the byte limit; "3000
// short lines totaling 20KB does NOT create a temp file".
func TestPipeSpillOnlyPastBytes(t *testing.T) {
	in := seqLines(1, 3000) // 13893 bytes
	r, sp := runDesign(t, pipeBash, SpillPastBytes, in)
	if sp.opened != 0 || r.FullOutputPath != "" {
		t.Fatal("a line-only cut created a spill file")
	}
	if r.Truncation.TruncatedBy != ByLines || r.Text() != seqLines(1001, 3000) {
		t.Fatalf("truncation %+v", r.Truncation)
	}
	if want := "[stdout: showing lines 1001-3000 of 3000]"; r.Notice("stdout") != want {
		t.Fatalf("notice %q", r.Notice("stdout"))
	}

	in = seqLines(1, 20000) // 108894 bytes
	r, sp = runDesign(t, pipeBash, SpillPastBytes, in)
	if sp.opened != 1 || sp.buf.String() != in || r.FullOutputPath == "" {
		t.Fatal("output past the byte limit was not spilled whole")
	}
}

// the pipe design's sanitizing rules through the pipeline: ANSI CSI and OSC
// stripped, control bytes dropped, "\r\n" → "\n" (and, by docs/architecture.md, a lone
// '\r' overwrites); the spill holds the same sanitized text.
func TestPipeSanitizing(t *testing.T) {
	raw := "\x1b[1;32m✓\x1b[0m ok \x1b]8;;file:///a\x07link\x1b]8;;\x07\r\n" +
		"bell\x07 back\x08space\x7f del\x1b[K\r\n" +
		"tab\tkept\n" +
		"Downloading  10%\rDownloading  55%\rDownloading 100%\n" +
		strings.Repeat("filler line\n", 5000) +
		"late\x00nul\n" // a NUL in the first 8 KiB would make the stream binary
	want := "✓ ok link\n" + "bell backspace del\n" + "tab\tkept\n" + "Downloading 100%\n" + strings.Repeat("filler line\n", 5000) + "latenul\n"
	r, sp := runDesign(t, pipeBash, SpillPastBytes, raw)
	if sp.buf.String() != want {
		t.Fatalf("spill is not the sanitized stream: %.120q", sp.buf.String())
	}
	if r.Truncation.TotalBytes != int64(len(want)) || r.Truncation.TotalLines != 5005 {
		t.Fatalf("truncation %+v", r.Truncation)
	}
	// The head of the same stream under a head policy shows the clean lines.
	r, _ = runDesign(t, Limits{Strategy: Head, MaxLines: 4, MaxBytes: 1024}, SpillOnCut, raw)
	if r.Text() != "✓ ok link\nbell backspace del\ntab\tkept\nDownloading 100%\n" {
		t.Fatalf("head %q", r.Text())
	}
}

// opencodeBash is the opencode design's line-aligned head+tail: half the lines from
// each end, 2000 lines and 50KB.
var opencodeBash = Limits{Strategy: HeadTail, HeadShare: 0.5, MaxLines: 2000, MaxBytes: 50 * 1024}

// The opencode design: output under the limits is unchanged and writes no file; over
// the line limit, the first and last 1000 lines, line-aligned.
func TestOpencodeHeadTailLines(t *testing.T) {
	in := seqLines(1, 2000)
	r, sp := runDesign(t, opencodeBash, SpillOnCut, in)
	if r.Truncation.Truncated || r.Text() != in || sp.opened != 0 {
		t.Fatal("output under the limits changed or was spilled")
	}

	in = seqLines(1, 8432)
	r, sp = runDesign(t, opencodeBash, SpillOnCut, in)
	if r.Head != seqLines(1, 1000) || r.Tail != seqLines(7433, 8432) || r.Truncation.TruncatedBy != ByLines {
		t.Fatalf("head/tail are not lines 1-1000 and 7433-8432: %+v", r.Truncation)
	}
	if !strings.Contains(r.Text(), "\n[... 6432 lines (") || sp.buf.String() != in {
		t.Fatalf("marker or spill missing")
	}
}

// The opencode design: over the byte limit, lines are trimmed from the inner
// boundary; no line is cut, and multi-byte characters are never garbled.
func TestOpencodeHeadTailMultiByte(t *testing.T) {
	var b strings.Builder
	var lines []string
	for i := 1; i <= 3000; i++ {
		l := fmt.Sprintf("%d 日本語のテキスト 😀 Ünïcödé %s\n", i, strings.Repeat("ß", i%17))
		lines = append(lines, l)
		b.WriteString(l)
	}
	in := b.String()
	r, _ := runDesign(t, opencodeBash, SpillOnCut, in)
	tr := r.Truncation
	if tr.TruncatedBy != ByBytes || tr.OutputBytes > 50*1024 || !utf8.ValidString(r.Text()) {
		t.Fatalf("truncation %+v", tr)
	}
	// Head: lines 1..h exactly; tail: lines n-t+1..n exactly.
	if r.Head != strings.Join(lines[:r.HeadLines], "") || r.Tail != strings.Join(lines[3000-r.TailLines:], "") {
		t.Fatal("head or tail is not made of whole input lines")
	}
	// The head got its share of the bytes; the tail the rest, and one more
	// line would not have fit.
	if len(r.Head) > 25*1024 || len(r.Head)+len(lines[r.HeadLines]) <= 25*1024 {
		t.Fatalf("head holds %d bytes in %d lines", len(r.Head), r.HeadLines)
	}
	if len(r.Head)+len(r.Tail)+len(lines[3000-r.TailLines-1]) <= 50*1024 {
		t.Fatalf("tail stopped early: %d bytes", len(r.Tail))
	}
}
