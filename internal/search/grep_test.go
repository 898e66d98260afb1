package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
)

// newTestSearcher returns a Searcher on root with the default limits and a
// session spill store.
func newTestSearcher(t testing.TB, root string) *Searcher {
	t.Helper()
	store := spill.NewSession(spill.Config{TempDir: t.TempDir()})
	t.Cleanup(func() { store.Close() })
	return New(Config{Cwd: root, Spill: store})
}

func grep(t testing.TB, s *Searcher, in GrepInput) GrepResult {
	t.Helper()
	r, err := s.Grep(context.Background(), in)
	if err != nil {
		t.Fatalf("grep %+v: %v", in, err)
	}
	return r
}

// The pi design, grep, "Hit match limit (100 matches)".
func TestGrepMatchLimit(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 150; i++ {
		fmt.Fprintf(&b, "matching content %d\n", i)
	}
	writeTree(t, root, map[string]string{"file.ts": b.String()})
	s := newTestSearcher(t, root)
	r := grep(t, s, GrepInput{Pattern: "matching"})
	lines := strings.Split(r.Text, "\n")
	if lines[0] != "file.ts:1: matching content 1" || lines[99] != "file.ts:100: matching content 100" {
		t.Errorf("first and last shown: %q, %q", lines[0], lines[99])
	}
	if want := "[100 matches limit reached. Use limit=200 for more, or refine pattern]"; lines[100] != "" || lines[101] != want || len(lines) != 102 {
		t.Errorf("notice: %q", lines[100:])
	}
	d := r.Details
	if !d.MatchLimitReached || d.MatchCount != 100 || d.FileCount != 1 || !d.Truncation.Truncated || d.Truncation.TruncatedBy != output.ByLines {
		t.Errorf("details %+v", d)
	}

	// Exactly the limit: nothing more exists, so no notice.
	r = grep(t, s, GrepInput{Pattern: "matching", Limit: 150})
	if r.Details.MatchLimitReached || strings.Contains(r.Text, "limit reached") || r.Details.MatchCount != 150 || r.Details.Truncation.Truncated {
		t.Errorf("limit = matches: %+v\n%s", r.Details, r.Text[len(r.Text)-100:])
	}
	// The limit counts across files, in path order.
	writeTree(t, root, map[string]string{"a.ts": "matching a\nmatching b\n"})
	r = grep(t, s, GrepInput{Pattern: "matching", Limit: 3})
	want := "a.ts:1: matching a\na.ts:2: matching b\nfile.ts:1: matching content 1\n\n[3 matches limit reached. Use limit=6 for more, or refine pattern]"
	if r.Text != want || r.Details.FileCount != 2 {
		t.Errorf("got\n%s\nwant\n%s", r.Text, want)
	}
}

// The pi design, grep, "Hit byte limit (< 100 matches, 50 KiB)".
func TestGrepByteLimit(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := range 150 {
		fmt.Fprintf(&b, "match %03d %s\n", i, strings.Repeat("x", 480))
	}
	writeTree(t, root, map[string]string{"big.txt": b.String()})
	s := newTestSearcher(t, root)
	r := grep(t, s, GrepInput{Pattern: "match", Limit: 200})
	body, notices, _ := strings.Cut(r.Text, "\n\n")
	if len(body) > 50*1024 {
		t.Errorf("body is %d bytes, over 50 KiB", len(body))
	}
	shown := strings.Count(body, "\n") + 1
	if shown >= 150 || shown < 90 {
		t.Errorf("%d lines shown", shown)
	}
	d := r.Details
	if !strings.HasPrefix(notices, fmt.Sprintf("[50.0KB limit reached: %d of 150 lines shown (150 matches found). Full output: ", shown)) ||
		!strings.HasSuffix(notices, fmt.Sprintf(". To see the rest: read it with offset=%d limit=%d]", shown+1, 150-shown)) ||
		d.Truncation.TruncatedBy != output.ByBytes || d.MatchLimitReached {
		t.Errorf("notices %q, details %+v", notices, d)
	}
	// The whole result is in the spill file the notice names.
	full, err := os.ReadFile(d.FullOutputPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(full), "\n"); n != 150 || !strings.HasPrefix(string(full), body) {
		t.Errorf("spill file has %d lines", n)
	}
	if !strings.Contains(notices, d.FullOutputPath) {
		t.Errorf("notice does not name %s", d.FullOutputPath)
	}
}

// The pi design, grep, "Match lines truncated (any line > 500 chars)".
func TestGrepLongLinesCut(t *testing.T) {
	root := t.TempDir()
	long := "very long matching content " + strings.Repeat("é", 600)
	writeTree(t, root, map[string]string{"file.ts": "normal match\n" + long + "\n"})
	s := newTestSearcher(t, root)
	r := grep(t, s, GrepInput{Pattern: "match"})
	lines := strings.Split(r.Text, "\n")
	cut := []rune(long)[:500]
	if lines[0] != "file.ts:1: normal match" || lines[1] != "file.ts:2: "+string(cut)+"... [truncated]" {
		t.Errorf("lines %q", lines[:2])
	}
	if lines[3] != "[1 line cut at 500 chars, around the first match when it lies further in. To see a line whole, read it: e.g. path="+filepath.Join(root, "file.ts")+" offset=2 limit=1]" {
		t.Errorf("notice %q", lines[3:])
	}
	d := r.Details
	if d.LinesCut != 1 || d.Truncation.LinesCut != 1 || d.Truncation.TruncatedBy != output.ByLineChars || !d.Truncation.Truncated {
		t.Errorf("details %+v", d)
	}
}

func TestGrepNoMatches(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "hello\n"})
	r := grep(t, newTestSearcher(t, root), GrepInput{Pattern: "absent"})
	if r.Text != "No matches found" || r.Details.MatchCount != 0 || r.Details.Truncation.Truncated {
		t.Errorf("%+v", r)
	}
}

func TestGrepBadInput(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "hello\n", "dir/b.txt": "hello\n"})
	if err := mkfifo(filepath.Join(root, "fifo")); err != nil {
		t.Fatal(err)
	}
	s := newTestSearcher(t, root)
	cases := []struct {
		in   GrepInput
		want string
	}{
		{GrepInput{Pattern: "(?=x)"}, "RE2 (Go's regexp) has no lookaround"},
		{GrepInput{Pattern: "(?=x)"}, "invalid or unsupported Perl syntax: `(?=`"},
		{GrepInput{Pattern: `(a)\1`}, "no backreferences"},
		{GrepInput{Pattern: ""}, "pattern is empty"},
		{GrepInput{Pattern: "x", OutputMode: "lines"}, "use content, files_with_matches or count"},
		{GrepInput{Pattern: "x", Context: -1}, "context -1"},
		{GrepInput{Pattern: "x", Glob: "[a"}, "invalid glob"},
		{GrepInput{Pattern: "x", Path: "missing"}, "path not found: missing"},
		{GrepInput{Pattern: "x", Path: "fifo"}, "fifo is a named pipe (FIFO)"},
		{GrepInput{Pattern: "x", Path: "/dev/zero"}, "/dev/zero is a character device"},
	}
	for _, c := range cases {
		_, err := s.Grep(context.Background(), c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("grep %+v: %v; want a one-line error with %q", c.in, err, c.want)
		}
	}
	// A directory, and a tree holding a FIFO, are searched; the FIFO is
	// passed over without blocking.
	r := grep(t, s, GrepInput{Pattern: "hello"})
	if r.Text != "a.txt:1: hello\ndir/b.txt:1: hello" {
		t.Errorf("tree with a FIFO: %q", r.Text)
	}
	r = grep(t, s, GrepInput{Pattern: "hello", Path: "dir"})
	if r.Text != "dir/b.txt:1: hello" {
		t.Errorf("path=dir: %q", r.Text)
	}
}

func TestGrepContext(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		if i == 5 || i == 7 || i == 20 {
			fmt.Fprintf(&b, "hit %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	writeTree(t, root, map[string]string{"a.txt": b.String(), "b.txt": "x\nhit\n"})
	s := newTestSearcher(t, root)
	r := grep(t, s, GrepInput{Pattern: "hit", Context: 2})
	want := `a.txt-3- line 3
a.txt-4- line 4
a.txt:5: hit 5
a.txt-6- line 6
a.txt:7: hit 7
a.txt-8- line 8
a.txt-9- line 9
--
a.txt-18- line 18
a.txt-19- line 19
a.txt:20: hit 20
a.txt-21- line 21
a.txt-22- line 22
--
b.txt-1- x
b.txt:2: hit`
	if r.Text != want {
		t.Errorf("got\n%s\nwant\n%s", r.Text, want)
	}
	if r.Details.MatchCount != 4 || r.Details.FileCount != 2 {
		t.Errorf("details %+v", r.Details)
	}
	// The limit cuts after the last match's trailing context.
	r = grep(t, s, GrepInput{Pattern: "hit", Context: 1, Limit: 2})
	want = "a.txt-4- line 4\na.txt:5: hit 5\na.txt-6- line 6\na.txt:7: hit 7\na.txt-8- line 8\n\n[2 matches limit reached. Use limit=4 for more, or refine pattern]"
	if r.Text != want {
		t.Errorf("got\n%s\nwant\n%s", r.Text, want)
	}
}

func TestGrepOutputModes(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "x\nx\nx\n", "b/c.go": "x\n", "d.md": "y\n", "e.go": "x\n"})
	s := newTestSearcher(t, root)
	r := grep(t, s, GrepInput{Pattern: "x", OutputMode: ModeFiles})
	if r.Text != "a.go\nb/c.go\ne.go" || r.Details.FileCount != 3 || r.Details.MatchCount != 3 {
		t.Errorf("files_with_matches: %q %+v", r.Text, r.Details)
	}
	r = grep(t, s, GrepInput{Pattern: "x", OutputMode: ModeCount})
	if r.Text != "a.go:3\nb/c.go:1\ne.go:1" || r.Details.MatchCount != 5 {
		t.Errorf("count: %q %+v", r.Text, r.Details)
	}
	r = grep(t, s, GrepInput{Pattern: "x", OutputMode: ModeFiles, Limit: 2})
	if r.Text != "a.go\nb/c.go\n\n[2 files limit reached. Use limit=4 for more, or refine pattern]" || !r.Details.MatchLimitReached {
		t.Errorf("files limit: %q", r.Text)
	}
	r = grep(t, s, GrepInput{Pattern: "x", OutputMode: ModeCount, Limit: 3})
	if r.Details.MatchLimitReached || r.Details.FileCount != 3 {
		t.Errorf("count limit = files: %q", r.Text)
	}
}

func TestGrepParameters(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"src/a.ts":         "Needle one\n",
		"src/deep/b.ts":    "needle two\n",
		"src/c.go":         "needle three\n",
		"README.md":        "needle (four)\n",
		".hidden/h.txt":    "needle hidden\n",
		".git/config":      "needle in git\n",
		".gitignore":       "ignored/\n*.log\n",
		"ignored/x.txt":    "needle ignored\n",
		"app.log":          "needle log\n",
		"bin.dat":          "needle\x00binary\n",
		"crlf.txt":         "needle crlf\r\nnext\r\n",
		"esc.txt":          "\x1b[31mneedle red\x1b[0m\n",
		"bad-utf8.txt":     "needle \xff\xfe here\n",
		"dir with space/f": "needle spaced\n",
	})
	s := newTestSearcher(t, root)
	cases := []struct {
		in   GrepInput
		want string
	}{
		{GrepInput{Pattern: "needle"}, ".hidden/h.txt:1: needle hidden\nREADME.md:1: needle (four)\nbad-utf8.txt:1: needle \uFFFD\uFFFD here\ncrlf.txt:1: needle crlf\ndir with space/f:1: needle spaced\nesc.txt:1: needle red\nsrc/c.go:1: needle three\nsrc/deep/b.ts:1: needle two"},
		{GrepInput{Pattern: "needle", IgnoreCase: true, Glob: "*.ts"}, "src/a.ts:1: Needle one\nsrc/deep/b.ts:1: needle two"},
		{GrepInput{Pattern: "needle", Glob: "src/**/*.ts"}, "src/deep/b.ts:1: needle two"},
		{GrepInput{Pattern: "needle", Glob: "src/*.ts", IgnoreCase: true}, "src/a.ts:1: Needle one"},
		{GrepInput{Pattern: "needle", Glob: "!*.{ts,txt}", Path: "src"}, "src/c.go:1: needle three"},
		{GrepInput{Pattern: "(four)", Literal: true}, "README.md:1: needle (four)"},
		{GrepInput{Pattern: "(four)"}, "README.md:1: needle (four)"},
		{GrepInput{Pattern: `^needle \(`}, "README.md:1: needle (four)"},
		{GrepInput{Pattern: "e t|e o", IgnoreCase: true}, "src/a.ts:1: Needle one\nsrc/c.go:1: needle three\nsrc/deep/b.ts:1: needle two"},
		{GrepInput{Pattern: "crlf$"}, "No matches found"}, // the line ends in \r, as rg sees it
		{GrepInput{Pattern: "needle", Path: "ignored/x.txt"}, "ignored/x.txt:1: needle ignored"},
		{GrepInput{Pattern: "needle", Path: "ignored"}, "ignored/x.txt:1: needle ignored"},
		{GrepInput{Pattern: "needle", Path: "bin.dat"}, "No matches found\n\n[bin.dat is a binary file (a NUL byte in its first 8 KiB); not searched]"},
		{GrepInput{Pattern: "needle", Path: filepath.Join(root, "src", "c.go")}, "src/c.go:1: needle three"},
	}
	for _, c := range cases {
		if r := grep(t, s, c.in); r.Text != c.want {
			t.Errorf("grep %+v\n got %q\nwant %q", c.in, r.Text, c.want)
		}
	}
	// Outside the cwd, paths are absolute.
	other := newTestSearcher(t, t.TempDir())
	if r := grep(t, other, GrepInput{Pattern: "three", Path: root}); r.Text != filepath.ToSlash(root)+"/src/c.go:1: needle three" {
		t.Errorf("outside cwd: %q", r.Text)
	}
}

// naiveGrep is the reference: every line of every file, in order, with
// bufio-free splitting, no limits.
func naiveGrep(re *regexp.Regexp, name string, data []byte) []string {
	var out []string
	lines := strings.Split(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if re.MatchString(l) {
			out = append(out, fmt.Sprintf("%s:%d", name, i+1))
		}
	}
	return out
}

// TestGrepMatchesNaiveAcrossBuffers compares line numbers with a naive
// search on files that span several read buffers, with lines of every
// length (including one longer than the buffer).
func TestGrepMatchesNaiveAcrossBuffers(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 0; b.Len() < 2*maxBuffer+12345; i++ {
		switch {
		case i%997 == 0:
			b.WriteString("needle at start " + strings.Repeat("y", i%5000) + "\n")
		case i == 4000:
			b.WriteString(strings.Repeat("z", maxBuffer+100) + "needle after a huge run\n")
		case i%13 == 0:
			b.WriteString(strings.Repeat("q", i%300) + " NeEdLe\n")
		default:
			b.WriteString(strings.Repeat("w", i%120) + "\n")
		}
	}
	data := b.String() + "needle on the last line without newline"
	writeTree(t, root, map[string]string{"big.txt": data})
	s := newTestSearcher(t, root)
	for _, in := range []GrepInput{
		{Pattern: "needle"},
		{Pattern: "needle", IgnoreCase: true},
		{Pattern: `ne+dle \w+`},
		{Pattern: `^needle`},
		{Pattern: `(?i)^q*\s*needle$`},
	} {
		in.Limit, in.OutputMode = 100000, ModeContent
		re := regexp.MustCompile(map[bool]string{true: "(?i)", false: ""}[in.IgnoreCase] + in.Pattern)
		want := naiveGrep(re, "big.txt", []byte(data))
		r := grep(t, s, in)
		var got []string
		for _, l := range strings.Split(fullOutput(t, r.Text, r.Details.FullOutputPath), "\n") {
			name, rest, _ := strings.Cut(l, ":")
			num, _, _ := strings.Cut(rest, ":")
			got = append(got, name+":"+num)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") || r.Details.MatchCount != len(want) {
			t.Errorf("%+v: %d matches, naive %d\n got %.300q\nwant %.300q", in, r.Details.MatchCount, len(want), got, want)
		}
		// count mode agrees.
		in.OutputMode = ModeCount
		if c := grep(t, s, in); c.Details.MatchCount != len(want) {
			t.Errorf("%+v: count %d, naive %d", in, c.Details.MatchCount, len(want))
		}
	}
}

// naiveContext renders content mode with context the simple way: every
// match and the lines around it, groups separated by "--".
func naiveContext(re *regexp.Regexp, name string, data string, n int) string {
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	show := make([]int, len(lines)) // 0 no, 1 context, 2 match
	for i, l := range lines {
		if re.MatchString(l) {
			show[i] = 2
			for j := max(0, i-n); j <= min(len(lines)-1, i+n); j++ {
				if show[j] == 0 {
					show[j] = 1
				}
			}
		}
	}
	var out []string
	prev := -2
	for i, s := range show {
		if s == 0 {
			continue
		}
		if prev >= 0 && i != prev+1 {
			out = append(out, "--")
		}
		sep := "-"
		if s == 2 {
			sep = ":"
		}
		out = append(out, fmt.Sprintf("%s%s%d%s %s", name, sep, i+1, sep, lines[i]))
		prev = i
	}
	return strings.Join(out, "\n")
}

// TestGrepContextAcrossBuffers: context lines before a match that sit in
// the previous read buffer, and after a match at a buffer's end.
func TestGrepContextAcrossBuffers(t *testing.T) {
	root := t.TempDir()
	// Lines of 100 bytes: read buffers end after line k*readBuffer/100.
	const width = 100
	edge := map[int]bool{}
	for k, offsets := range [][]int{{0, 1, 5}, {-2}, {0, 3}} {
		b := (k + 1) * readBuffer / width // first line of a buffer
		for _, d := range offsets {
			edge[b+d] = true
		}
	}
	var b strings.Builder
	for i := 0; b.Len() < 3*readBuffer+width*100; i++ {
		word := "line"
		if edge[i] || i%1499 == 0 || i%7919 == 0 {
			word = "needle"
		}
		fmt.Fprintf(&b, "%-*s\n", width-1, fmt.Sprintf("%s %d", word, i))
	}
	data := b.String()
	writeTree(t, root, map[string]string{"f.txt": data})
	s := newTestSearcher(t, root)
	for _, n := range []int{1, 3, 40} {
		r := grep(t, s, GrepInput{Pattern: "needle", Context: n, Limit: 100000})
		got := fullOutput(t, r.Text, r.Details.FullOutputPath)
		want := naiveContext(regexp.MustCompile("needle"), "f.txt", data, n)
		if got != want {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("context %d differs at byte %d:\n got …%.200q\nwant …%.200q", n, i, got[max(0, i-100):], want[max(0, i-100):])
		}
	}
}

// fullOutput returns the whole result: the spill file when the byte limit
// cut the text, else the text without its notices.
func fullOutput(t *testing.T, text, spilled string) string {
	t.Helper()
	if spilled == "" {
		body, _, _ := strings.Cut(text, "\n\n")
		return body
	}
	full, err := os.ReadFile(spilled)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(full), "\n")
}

// TestGrepHeldMemoryBound: when the lines held for files ahead of the one
// shown pass maxHeld, files are scanned when they are reached instead (the
// result does not change), and a single file past it stops the search
// with a notice.
func TestGrepHeldMemoryBound(t *testing.T) {
	root := t.TempDir()
	tree := map[string]string{}
	for i := range 120 {
		var b strings.Builder
		for j := range 40 {
			fmt.Fprintf(&b, "needle %d %d %s\nplain\n", i, j, strings.Repeat("z", 150))
		}
		tree[fmt.Sprintf("d%d/f%03d.txt", i%4, i)] = b.String()
	}
	writeTree(t, root, tree)
	s := newTestSearcher(t, root)
	in := GrepInput{Pattern: "needle", Context: 1, Limit: 100000}
	want := grep(t, s, in)
	wantFull := fullOutput(t, want.Text, want.Details.FullOutputPath)

	defer func(old int64) { maxHeld = old }(maxHeld)
	maxHeld = 64 << 10 // several files' lines
	got := grep(t, s, in)
	if full := fullOutput(t, got.Text, got.Details.FullOutputPath); full != wantFull || got.Details.MatchCount != 4800 {
		t.Errorf("deferred scans changed the result: %d matches", got.Details.MatchCount)
	}
	maxHeld = 4 << 10 // less than one file's lines
	got = grep(t, s, in)
	if !strings.Contains(got.Text, "[Search stopped in d0/f000.txt: its matches and context passed 4.0KB. Refine the pattern, or lower context]") || !got.Details.Truncation.Truncated {
		t.Errorf("capped: %+v", got.Details)
	}
}
