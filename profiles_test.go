package spillway

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
)

// numbered returns lines from..to, "line N" padded with dots to width
// bytes ('\n' included; 0: no padding).
func numbered(from, to, width int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		s := fmt.Sprintf("line %d", i)
		if pad := width - 1 - len(s); pad > 0 {
			s += strings.Repeat(".", pad)
		}
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return b.String()
}

// sixDigits returns lines from..to, each the number in six digits: 7
// bytes a line.
func sixDigits(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%06d\n", i)
	}
	return b.String()
}

// replayed is what a replay shows, and what it spilled.
type replayed struct {
	res     output.Result
	spilled []byte // content of the spill file, nil when none was made
}

// replay feeds in to a Pipeline with the given limits, in 4 KiB writes (as
// a pipe delivers it), spilling into store as bash's <stream> of a new
// call would.
func replay(t *testing.T, store *spill.Store, lim output.Limits, when output.SpillWhen, stream, in string) replayed {
	t.Helper()
	opt := output.Options{Limits: lim, SpillWhen: when}
	if store != nil { // nil: a read, which never spills
		opt.Spill = store.Opener("bash", store.NextSeq(), stream)
	}
	p := output.New(opt)
	for b := []byte(in); len(b) > 0; {
		n := min(len(b), 4096)
		p.Write(b[:n])
		b = b[n:]
	}
	p.Close()
	r := replayed{res: p.Result()}
	if path := r.res.FullOutputPath; path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("the notice names %s, which cannot be read: %v", path, err)
		}
		r.spilled = data
	}
	return r
}

// readLimits are a read page's limits as the pipeline's: the head of the
// file, held to the read policy.
func readLimits(r ReadPolicy) output.Limits {
	return output.Limits{Strategy: output.Head, MaxLines: r.MaxLines, MaxBytes: r.MaxBytes, MaxLineChars: r.MaxLineChars, MaxTokens: r.MaxTokens}
}

// readForCall is the limits of a read call with the limit parameter n.
func readForCall(r ReadPolicy, n int) output.Limits {
	l := readLimits(r)
	l.MaxLines = policy.Limit(n, l.MaxLines)
	return l
}

// newStore returns a session spill store in a test directory, with the
// policy's spill cap and budget.
func newStore(t *testing.T, p Policy) *spill.Store {
	cfg := p.Spill.storeConfig()
	cfg.TempDir = t.TempDir()
	s := spill.NewSession(cfg)
	t.Cleanup(func() { s.Close() })
	return s
}

// spillFiles lists the files the store made.
func spillFiles(t *testing.T, s *spill.Store) []string {
	if s.Dir() == "" {
		return nil
	}
	ents, err := os.ReadDir(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// want is what a replay must show.
type want struct {
	head, tail  string // exact content; "-" skips the check
	by          string // truncated_by
	outLines    int64
	notice      string // regexp the notice must match; "" means no notice
	spill       bool   // a spill file with the whole input is named
	lastPartial bool
	linesCut    int64
}

func (w want) check(t *testing.T, in string, r replayed) {
	t.Helper()
	res := r.res
	if w.head != "-" && res.Head != w.head {
		t.Errorf("head: got %d lines %.80q…, want %d lines %.80q…", strings.Count(res.Head, "\n"), res.Head, strings.Count(w.head, "\n"), w.head)
	}
	if w.tail != "-" && res.Tail != w.tail {
		t.Errorf("tail: got %d lines %.80q…, want %d lines %.80q…", strings.Count(res.Tail, "\n"), res.Tail, strings.Count(w.tail, "\n"), w.tail)
	}
	tr := res.Truncation
	if tr.TruncatedBy != w.by {
		t.Errorf("truncated_by = %q, want %q", tr.TruncatedBy, w.by)
	}
	if w.outLines >= 0 && tr.OutputLines != w.outLines {
		t.Errorf("output_lines = %d, want %d", tr.OutputLines, w.outLines)
	}
	if tr.LastLinePartial != w.lastPartial {
		t.Errorf("last_line_partial = %v, want %v", tr.LastLinePartial, w.lastPartial)
	}
	if tr.LinesCut != w.linesCut {
		t.Errorf("lines_cut = %d, want %d", tr.LinesCut, w.linesCut)
	}
	notice := res.Notice("stdout")
	switch {
	case w.notice == "" && notice != "":
		t.Errorf("notice %q, want none", notice)
	case w.notice != "" && !regexp.MustCompile(w.notice).MatchString(notice):
		t.Errorf("notice %q does not match %q", notice, w.notice)
	}
	if w.spill {
		if !regexp.MustCompile(`/bash-\d+-stdout\.log$`).MatchString(res.FullOutputPath) {
			t.Errorf("full output path %q is not a bash stdout spill file", res.FullOutputPath)
		}
		if !strings.Contains(notice, "Full output: "+res.FullOutputPath) {
			t.Errorf("notice %q does not name the spill file", notice)
		}
		if string(r.spilled) != in {
			t.Errorf("spill file holds %d bytes, want the whole input, %d bytes", len(r.spilled), len(in))
		}
	} else if res.FullOutputPath != "" {
		t.Errorf("spilled to %s, want no file", res.FullOutputPath)
	}
}

func TestProfileDefault(t *testing.T) {
	p := mustProfile(t, "default")
	// docs/tools.md, bash text: "[stdout: showing lines 1-800 and 7701-8500 of
	// 8500 (50.0KB limit). Full output: /tmp/spillway-…/bash-3-stdout.log]"
	// — head 0.4 × 2000 lines; the tail fills the rest of the 50 KiB.
	in := numbered(1, 7700, 25) + numbered(7701, 8500, 39)
	store := newStore(t, p)
	r := replay(t, store, p.Bash.Stdout, p.Bash.SpillWhen, "stdout", in)
	want{
		head: numbered(1, 800, 25), tail: numbered(7701, 8500, 39), by: output.ByBytes, outLines: 1600,
		notice: `^\[stdout: showing lines 1-800 and 7701-8500 of 8500 \(50\.0KB limit\)\. Full output: .*/bash-1-stdout\.log\. To see what was cut: read it with offset=801 limit=6900\]$`,
		spill:  true,
	}.check(t, in, r)
	if !strings.Contains(r.res.Text(), "\n[... 6900 lines (") {
		t.Errorf("no omission marker between head and tail")
	}
}

func TestProfilePi(t *testing.T) {
	p := mustProfile(t, "pi")
	if !p.Bash.MergeStreams {
		t.Error("pi merges stdout and stderr")
	}
	// The last 500 lines take exactly 30 KiB: 280 lines of 61 bytes and 220
	// of 62; any more passes the byte limit.
	byteLimited := numbered(1, 49500, 0) + numbered(49501, 49780, 61) + numbered(49781, 50000, 62)
	tests := []struct {
		name string
		lim  output.Limits
		in   string
		want want
	}{
		{
			// pi's design, "## bash" "Hit line limit (2000 lines)".
			name: "bash line limit", lim: p.Bash.Stdout, in: numbered(1, 50000, 0),
			want: want{head: "", tail: numbered(48001, 50000, 0), by: output.ByLines, outLines: 2000,
				notice: `^\[stdout: showing lines 48001-50000 of 50000\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
		{
			// pi's design, "## bash" "Hit byte limit (< 2000 lines, 30KB)".
			name: "bash byte limit", lim: p.Bash.Stdout, in: byteLimited,
			want: want{head: "", tail: byteLimited[len(byteLimited)-30*1024:], by: output.ByBytes, outLines: 500,
				notice: `^\[stdout: showing lines 49501-50000 of 50000 \(30\.0KB limit\)\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
		{
			// pi's design, "## bash" "Last line alone > 30KB (edge case, partial OK here)".
			name: "bash last line alone over 30KB", lim: p.Bash.Stdout,
			in: numbered(1, 49999, 0) + strings.Repeat("x", 100*1024),
			want: want{head: "", tail: strings.Repeat("x", 30*1024), by: output.ByBytes, outLines: 1, lastPartial: true,
				notice: `^\[stdout: showing the last 30\.0KB of line 50000 \(line is 100\.0KB\)\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
		{
			// pi's design, "## read" "Hit line limit (2000 lines, < 30KB)": lines 1-2000 of 5000.
			name: "read line limit", lim: readLimits(p.Read), in: numbered(1, 5000, 0),
			want: want{head: numbered(1, 2000, 0), tail: "", by: output.ByLines, outLines: 2000,
				notice: `^\[stdout: showing lines 1-2000 of 5000\]$`},
		},
		{
			// pi's design, "## read" "Hit byte limit (< 2000 lines, 30KB)": lines 1-500 of 5000.
			name: "read byte limit", lim: readLimits(p.Read), in: byteLimited[len(byteLimited)-30*1024:] + numbered(50001, 54500, 0),
			want: want{head: byteLimited[len(byteLimited)-30*1024:], tail: "", by: output.ByBytes, outLines: 500,
				notice: `^\[stdout: showing lines 1-500 of 5000 \(30\.0KB limit\)\]$`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var store *spill.Store
			if !strings.HasPrefix(tt.name, "read") {
				store = newStore(t, p)
			}
			tt.want.check(t, tt.in, replay(t, store, tt.lim, p.Bash.SpillWhen, "stdout", tt.in))
		})
	}
}

func TestProfileZdx(t *testing.T) {
	p := mustProfile(t, "zdx")
	// zdx's design, "Slice 3" demo: cat /dev/urandom | head -c 100000 | base64.
	random := make([]byte, 100000)
	rng := rand.NewChaCha8([32]byte{1})
	rng.Read(random)
	var b64 strings.Builder
	enc := base64.StdEncoding.EncodeToString(random)
	for len(enc) > 76 { // base64(1) wraps at 76 columns
		b64.WriteString(enc[:76] + "\n")
		enc = enc[76:]
	}
	b64.WriteString(enc + "\n")
	base64Out := b64.String()
	kept := base64Out[:51200/77*77] // whole 77-byte lines within 50 KiB

	longLine := strings.Repeat("é", 1000) // 1000 chars, 2000 bytes
	tests := []struct {
		name string
		lim  output.Limits
		in   string
		want want
	}{
		{
			name: "bash stdout over 50KB keeps the start", lim: p.Bash.Stdout, in: base64Out,
			want: want{head: kept, tail: "", by: output.ByBytes, outLines: int64(len(kept) / 77),
				notice: `^\[stdout: showing lines 1-664 of 1755 \(50\.0KB limit\)\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
		{
			// zdx's design, "Slice 3": stderr is limited on its own ("stderr_total_bytes": 256, "stderr_truncated": false).
			name: "bash stderr under 50KB is whole", lim: p.Bash.Stderr, in: strings.Repeat("e", 255) + "\n",
			want: want{head: strings.Repeat("e", 255) + "\n", tail: "", by: "", outLines: 1},
		},
		{
			// zdx's design, "Slice 1" demo: a 3000-line file shows 2000 lines.
			name: "read 3000 lines", lim: readLimits(p.Read), in: numbered(1, 3000, 0),
			want: want{head: numbered(1, 2000, 0), tail: "", by: output.ByLines, outLines: 2000,
				notice: `^\[stdout: showing lines 1-2000 of 3000\]$`},
		},
		{
			// zdx's design, "Slice 1" demo: a 1000-char line is cut at 500 chars (a char
			// boundary). The default policy keeps a marker and counts the cut in
			// lines_cut; read's truncated stays false (docs/tools.md).
			name: "read 1000-char line cut at 500", lim: readLimits(p.Read), in: longLine + "\n",
			want: want{head: strings.Repeat("é", 500) + "... [500 chars cut]\n", tail: "", by: output.ByLineChars, outLines: 1,
				linesCut: 1, notice: `^\[stdout: 1 line cut at 500 chars\]$`},
		},
		{
			// zdx's design, "Slice 2" demo: offset 1000, limit 500 shows lines 1000-1499.
			name: "read limit 500 from line 1000", lim: readForCall(p.Read, 500), in: numbered(1000, 5000, 0),
			want: want{head: numbered(1000, 1499, 0), tail: "", by: output.ByLines, outLines: 500,
				notice: `^\[stdout: showing lines 1-500 of 4001\]$`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var store *spill.Store
			if !strings.HasPrefix(tt.name, "read") {
				store = newStore(t, p)
			}
			tt.want.check(t, tt.in, replay(t, store, tt.lim, p.Bash.SpillWhen, "stdout", tt.in))
		})
	}
}

func TestProfileOpencode(t *testing.T) {
	p := mustProfile(t, "opencode")
	utf8Lines := strings.Repeat("héllo wörld ✓ ünïcödé 日本語のテキスト\n", 3000)
	tests := []struct {
		name string
		in   string
		want want
	}{
		{
			// opencode's design, "Desired State": "<stdout truncated: 8,432 lines total>",
			// first 500 and last 500 lines, "Full output saved to: …".
			name: "8432 lines", in: numbered(1, 8432, 0),
			want: want{head: numbered(1, 500, 0), tail: numbered(7933, 8432, 0), by: output.ByLines, outLines: 1000,
				notice: `^\[stdout: showing lines 1-500 and 7933-8432 of 8432\. Full output: \S+/bash-\d+-stdout\.log\. To see what was cut: read it with offset=501 limit=7432\]$`, spill: true},
		},
		{
			// opencode's design, "Success Criteria": output under the limits behaves as
			// before, no temp file written.
			name: "2000 lines fit", in: numbered(1, 2000, 0),
			want: want{head: numbered(1, 2000, 0), tail: "", by: "", outLines: 2000},
		},
		{
			// opencode's design, "Phase 1" 1.1: past 50KB with fewer than 2000 lines, the
			// head+tail preview is trimmed from the inner boundary to 50KB.
			name: "1500 lines of 100 bytes", in: numbered(1, 1500, 100),
			want: want{head: numbered(1, 256, 100), tail: numbered(1245, 1500, 100), by: output.ByBytes, outLines: 512,
				notice: `^\[stdout: showing lines 1-256 and 1245-1500 of 1500 \(50\.0KB limit\)\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
		{
			// opencode's design, "Phase 1" 1.2: multi-byte UTF-8 content is never garbled.
			name: "multi-byte lines", in: utf8Lines,
			want: want{head: "-", tail: "-", by: output.ByBytes, outLines: -1, notice: `^\[stdout: showing lines 1-\d+ and \d+-3000 of 3000 \(50\.0KB limit\)`, spill: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := replay(t, newStore(t, p), p.Bash.Stdout, p.Bash.SpillWhen, "stdout", tt.in)
			tt.want.check(t, tt.in, r)
			if !strings.HasPrefix(tt.in, r.res.Head) || !strings.HasSuffix(tt.in, r.res.Tail) {
				t.Errorf("head or tail is not a line-aligned slice of the input")
			}
			if n := r.res.Truncation.OutputBytes; n > 50*1024 {
				t.Errorf("showed %d bytes, over 50 KiB", n)
			}
		})
	}
	// opencode's design, "Phase 2" 2.3 and "Edge Cases": past 100MB the file stops and the
	// notice says so.
	t.Run("spill capped at 100MB", func(t *testing.T) {
		if testing.Short() {
			t.Skip("writes 100 MiB")
		}
		store := newStore(t, p)
		pl := output.New(output.Options{Limits: p.Bash.Stdout, SpillWhen: p.Bash.SpillWhen, Spill: store.Opener("bash", 1, "stdout")})
		chunk := []byte(numbered(1, 10000, 64)) // 640,000 bytes
		for written := 0; written <= 100<<20; written += len(chunk) {
			pl.Write(chunk)
		}
		pl.Close()
		res := pl.Result()
		fi, err := os.Stat(res.FullOutputPath)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() != 100<<20 || !res.SpillCapped {
			t.Errorf("spill file %d bytes, capped %v; want %d, capped", fi.Size(), res.SpillCapped, 100<<20)
		}
		if !strings.Contains(res.Notice("stdout"), "(full output capped at 100.0MB)") {
			t.Errorf("notice %q does not say the cap", res.Notice("stdout"))
		}
	})
}

func TestProfileMacosShell(t *testing.T) {
	p := mustProfile(t, "macos-shell")
	elf := append([]byte("\x7fELF\x02\x01\x01\x00\x00\x00"), bytes.Repeat([]byte{0, 1, 2, 0xfe}, 4000)...)
	minified := `{"a":` + strings.Repeat(`"0123456789",`, 4000) + `1}` + "\n" // 52,007 chars on one line
	tests := []struct {
		name string
		lim  output.Limits
		in   string
		want want
	}{
		{
			// macos-shell's design, "3. Core Implementation" truncateOutput: 600 stdout lines
			// with maxOutputLines 500 keep ceil(500×0.6) = 300 from the
			// start and floor(500×0.4) = 200 from the end, a marker between.
			name: "600 stdout lines", lim: p.Bash.Stdout, in: numbered(1, 600, 0),
			want: want{head: numbered(1, 300, 0), tail: numbered(401, 600, 0), by: output.ByLines, outLines: 500,
				notice: `^\[stdout: showing lines 1-300 and 401-600 of 600\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
		{
			// totalLines <= maxLines: returned as is.
			name: "500 stdout lines fit", lim: p.Bash.Stdout, in: numbered(1, 500, 0),
			want: want{head: numbered(1, 500, 0), tail: "", by: "", outLines: 500},
		},
		{
			// maxErrorLines 750: 450 from the start, 300 from the end.
			name: "1000 stderr lines", lim: p.Bash.Stderr, in: numbered(1, 1000, 0),
			want: want{head: numbered(1, 450, 0), tail: numbered(701, 1000, 0), by: output.ByLines, outLines: 750,
				notice: `^\[stdout: showing lines 1-450 and 701-1000 of 1000\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
		{
			// "Testing Strategy" test 3, a long single line (minified JSON):
			// MAX_SINGLE_LINE_LENGTH = 10000.
			name: "minified JSON line", lim: p.Bash.Stdout, in: minified,
			want: want{head: minified[:10000] + fmt.Sprintf("... [%d chars cut]\n", len(minified)-1-10000), tail: "",
				by: output.ByLineChars, outLines: 1, linesCut: 1,
				notice: `^\[stdout: 1 line cut at 10000 chars\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := replay(t, newStore(t, p), tt.lim, p.Bash.SpillWhen, "stdout", tt.in)
			tt.want.check(t, tt.in, r)
			if tt.want.tail != "" && !strings.Contains(r.res.Text(), "\n[... ") {
				t.Errorf("no omission marker in %.100q", r.res.Text())
			}
		})
	}
	t.Run("binary output", func(t *testing.T) {
		// "Testing Strategy" test 1: cat /bin/ls.
		r := replay(t, newStore(t, p), p.Bash.Stdout, p.Bash.SpillWhen, "stdout", string(elf))
		if !r.res.Binary || r.res.Head != "" || r.res.Tail != "" {
			t.Fatalf("binary %v, shown %q%q", r.res.Binary, r.res.Head, r.res.Tail)
		}
		if want := fmt.Sprintf("[binary output: %d bytes. Full output: %s]", len(elf), r.res.FullOutputPath); r.res.Notice("stdout") != want {
			t.Errorf("notice %q, want %q", r.res.Notice("stdout"), want)
		}
		if !bytes.Equal(r.spilled, elf) {
			t.Errorf("spill file does not hold the raw bytes")
		}
	})
	t.Run("same output, per-call limits", func(t *testing.T) {
		// "Testing Strategy" test 4: maxOutputLines 100, then 50.
		in := numbered(1, 300, 0)
		for _, n := range []int{100, 50} {
			r := replay(t, newStore(t, p), policy.ForCall(p.Bash.Stdout, n, 0, false), p.Bash.SpillWhen, "stdout", in)
			head, tail := n*6/10, n*4/10
			want{head: numbered(1, head, 0), tail: numbered(301-tail, 300, 0), by: output.ByLines, outLines: int64(n),
				notice: `^\[stdout: showing lines`, spill: true}.check(t, in, r)
		}
	})
}

func TestProfilePipe(t *testing.T) {
	p := mustProfile(t, "pipe")
	tests := []struct {
		name string
		in   string
		want want
	}{
		{
			// pipe's design, "Filesystem Offloading": "3000 short lines totaling 20KB"
			// are cut by lines and do NOT create a temp file.
			name: "3000 short lines", in: sixDigits(1, 3000), // 21,000 bytes
			want: want{head: "", tail: sixDigits(1001, 3000), by: output.ByLines, outLines: 2000,
				notice: `^\[stdout: showing lines 1001-3000 of 3000\]$`},
		},
		{
			// "Showing last 2000 of 8500 lines. Full output: /tmp/pipe-bash-….log":
			// past 50KB the full output is offloaded.
			name: "8500 lines past 50KB", in: numbered(1, 8500, 20),
			want: want{head: "", tail: numbered(6501, 8500, 20), by: output.ByLines, outLines: 2000,
				notice: `^\[stdout: showing lines 6501-8500 of 8500\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
		{
			// "Tail Truncation": two limits, whichever first — here 50KB.
			name: "1000 lines of 100 bytes", in: numbered(1, 1000, 100),
			want: want{head: "", tail: numbered(489, 1000, 100), by: output.ByBytes, outLines: 512,
				notice: `^\[stdout: showing lines 489-1000 of 1000 \(50\.0KB limit\)\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
		{
			// "if a single line exceeds 50KB, take the tail of that line".
			name: "one line over 50KB", in: strings.Repeat("abcd", 20000) + "\n",
			want: want{head: "", tail: strings.Repeat("abcd", 12800)[1:] + "\n", by: output.ByBytes, outLines: 1, lastPartial: true,
				notice: `^\[stdout: showing the last 50\.0KB of line 1 \(line is 78\.1KB\)\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := newStore(t, p)
			r := replay(t, store, p.Bash.Stdout, p.Bash.SpillWhen, "stdout", tt.in)
			tt.want.check(t, tt.in, r)
			if files := spillFiles(t, store); !tt.want.spill && len(files) > 0 {
				t.Errorf("spill files %v, want none", files)
			}
		})
	}
}

// TestProfileClaudeCode: 30,000 characters of bash output, the middle
// cut out, and reads numbered like Claude Code's Read.
func TestProfileClaudeCode(t *testing.T) {
	p := mustProfile(t, "claude-code")
	// 5000 lines of 10 bytes: 50,000 bytes, over the 30,000 limit; half
	// the budget to each end.
	in := numbered(1, 5000, 10)
	store := newStore(t, p)
	r := replay(t, store, p.Bash.Stdout, p.Bash.SpillWhen, "stdout", in)
	want{head: numbered(1, 1500, 10), tail: numbered(3501, 5000, 10), by: output.ByBytes, outLines: 3000,
		notice: `^\[stdout: showing lines 1-1500 and 3501-5000 of 5000 \(29\.3KB limit\)\. Full output: \S+\. To see what was cut: read it with [^]]+\]$`, spill: true}.check(t, in, r)
	if !p.Read.LineNumbers || p.Bash.Stdout.MaxLineChars != 0 || p.Bash.MergeStreams {
		t.Errorf("read %+v, bash %+v", p.Read, p.Bash)
	}
}

// TestProfileNumbers checks every number docs/profiles.md cites against
// the profiles, for the tools that do not go through a replay above.
func TestProfileNumbers(t *testing.T) {
	type nums struct {
		readLines, readBytes, readChars int
		grepLimit, grepBytes, grepChars int
		findLimit, findBytes            int
		lsLimit, lsBytes                int
		spillMax                        int64
	}
	def := nums{2000, 51200, 2000, 100, 51200, 500, 1000, 51200, 500, 51200, 100 << 20}
	tests := map[string]nums{
		"default":     def,
		"pi":          {2000, 30720, 0, 100, 30720, 500, 1000, 30720, 500, 30720, 100 << 20},
		"zdx":         {2000, streamCeiling, 500, 100, 51200, 500, 1000, 51200, 500, 51200, 100 << 20},
		"opencode":    {2000, 256000, 2000, 100, 51200, 500, 1000, 51200, 500, 51200, 100 * 1024 * 1024},
		"macos-shell": def,
		"pipe":        def,
		"claude-code": {2000, 256 * 1024, 2000, 250, 20000, 500, 100, 51200, 500, 51200, 100 << 20},
	}
	for name, w := range tests {
		p := mustProfile(t, name)
		got := nums{p.Read.MaxLines, p.Read.MaxBytes, p.Read.MaxLineChars, p.Grep.Limit, p.Grep.MaxBytes, p.Grep.MaxLineChars,
			p.Find.Limit, p.Find.MaxBytes, p.Ls.Limit, p.Ls.MaxBytes, p.Spill.MaxBytes}
		if got != w {
			t.Errorf("%s: got %+v, want %+v", name, got, w)
		}
		if p.Shell != "bash" || p.Timeout != 2*time.Minute {
			t.Errorf("%s: shell %q, timeout %v; a profile changes neither", name, p.Shell, p.Timeout)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if p.Profile != name {
			t.Errorf("%s: Profile = %q", name, p.Profile)
		}
	}
	if len(tests) != len(policy.ProfileNames()) {
		t.Errorf("%d profiles tested, %d exist", len(tests), len(policy.ProfileNames()))
	}
}

// TestProfilesDoc checks that docs/profiles.md has a column for every
// profile, quotes the design each follows, and cites nothing outside the
// repository.
func TestProfilesDoc(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("docs", "profiles.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, name := range policy.ProfileNames() {
		if !strings.Contains(doc, "`"+name+"`") {
			t.Errorf("docs/profiles.md does not name profile %s", name)
		}
	}
	for _, name := range []string{"pi", "zdx", "opencode", "macos-shell", "pipe"} {
		_, sec, ok := strings.Cut(doc, "\n### `"+name+"`\n")
		sec, _, _ = strings.Cut(sec, "\n### ")
		if !ok || !strings.Contains(sec, "\n> ") {
			t.Errorf("docs/profiles.md does not quote the design of %s in its section", name)
		}
	}
	for _, outside := range []string{"SP" + "EC", "se" + "ed", "shared/"} {
		if strings.Contains(doc, outside) {
			t.Errorf("docs/profiles.md refers to %q, outside the repository", outside)
		}
	}
}

func TestProfileUnknown(t *testing.T) {
	_, err := Profile("claude")
	if err == nil || !strings.Contains(err.Error(), "macos-shell") {
		t.Errorf("unknown profile: %v, want an error listing the profiles", err)
	}
	if p, err := Profile(""); err != nil || p.Profile != "default" {
		t.Errorf(`Profile("") = %q, %v; want default`, p.Profile, err)
	}
}

func mustProfile(t *testing.T, name string) Policy {
	t.Helper()
	p, err := Profile(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The profiles Profile builds are those policy.ProfileNames lists, which
// the CLI's help and the config file's checks read.
func TestProfileNamesAreTheTable(t *testing.T) {
	names := policy.ProfileNames()
	if len(names) != len(profiles) {
		t.Errorf("policy.ProfileNames lists %d profiles, the table has %d", len(names), len(profiles))
	}
	for i, name := range names {
		if i < len(profiles) && profiles[i].name != name {
			t.Errorf("policy.ProfileNames lists %q as profile %d, the table %q", name, i, profiles[i].name)
		}
		if _, err := Profile(name); err != nil {
			t.Errorf("policy.ProfileNames lists %q, which Profile does not build: %v", name, err)
		}
	}
	if names[0] != "default" {
		t.Errorf("the first profile is %q, want default", names[0])
	}
}
