package spillway

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
)

// The grep tool on a search engine of the default limits: the text,
// notices and details the root renders of what it finds.

// newSearchEngine returns a search engine on root with the default limits
// and a session spill store.
func newSearchEngine(t testing.TB, root string) *search.Searcher {
	t.Helper()
	store := spill.NewSession(spill.Config{TempDir: t.TempDir()})
	t.Cleanup(func() { store.Close() })
	return search.New(search.Config{Cwd: root, Spill: store})
}

// writeSearchTree creates the files and directories ("name/") of a tree
// map under root.
func writeSearchTree(t testing.TB, root string, tree map[string]string) {
	t.Helper()
	for p, content := range tree {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func grepPage(t testing.TB, s *search.Searcher, in GrepInput) Result[GrepDetails] {
	t.Helper()
	r, err := grepFiles(context.Background(), s, in)
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
	writeSearchTree(t, root, map[string]string{"file.ts": b.String()})
	s := newSearchEngine(t, root)
	r := grepPage(t, s, GrepInput{Pattern: "matching"})
	lines := strings.Split(r.Text, "\n")
	if lines[0] != "file.ts:1: matching content 1" || lines[99] != "file.ts:100: matching content 100" {
		t.Errorf("first and last shown: %q, %q", lines[0], lines[99])
	}
	// The scan of file.ts stopped at the 101st match: that many are known.
	if want := "[100 matches limit reached: at least 101 found. Use limit=200 for more, or refine pattern]"; lines[100] != "" || lines[101] != want || len(lines) != 102 {
		t.Errorf("notice: %q", lines[100:])
	}
	d := r.Details
	if !d.MatchLimitReached || d.MatchCount != 100 || d.FileCount != 1 || !d.Truncation.Truncated || d.Truncation.TruncatedBy != output.ByLines {
		t.Errorf("details %+v", d)
	}

	// Exactly the limit: nothing more exists, so no notice.
	r = grepPage(t, s, GrepInput{Pattern: "matching", Limit: 150})
	if r.Details.MatchLimitReached || strings.Contains(r.Text, "limit reached") || r.Details.MatchCount != 150 || r.Details.Truncation.Truncated {
		t.Errorf("limit = matches: %+v\n%s", r.Details, r.Text[len(r.Text)-100:])
	}
	// The limit counts across files, in path order.
	writeSearchTree(t, root, map[string]string{"a.ts": "matching a\nmatching b\n"})
	r = grepPage(t, s, GrepInput{Pattern: "matching", Limit: 3})
	want := "a.ts:1: matching a\na.ts:2: matching b\nfile.ts:1: matching content 1\n\n[3 matches limit reached: at least 6 found. Use limit=6 for more, or refine pattern]"
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
	writeSearchTree(t, root, map[string]string{"big.txt": b.String()})
	s := newSearchEngine(t, root)
	r := grepPage(t, s, GrepInput{Pattern: "match", Limit: 200})
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
	writeSearchTree(t, root, map[string]string{"file.ts": "normal match\n" + long + "\n"})
	s := newSearchEngine(t, root)
	r := grepPage(t, s, GrepInput{Pattern: "match"})
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
	writeSearchTree(t, root, map[string]string{"a.txt": "hello\n"})
	r := grepPage(t, newSearchEngine(t, root), GrepInput{Pattern: "absent"})
	if r.Text != "No matches found" || r.Details.MatchCount != 0 || r.Details.Truncation.Truncated {
		t.Errorf("%+v", r)
	}
}

func TestGrepBadInput(t *testing.T) {
	root := t.TempDir()
	writeSearchTree(t, root, map[string]string{"a.txt": "hello\n", "dir/b.txt": "hello\n"})
	if err := mkfifo(filepath.Join(root, "fifo")); err != nil {
		t.Fatal(err)
	}
	s := newSearchEngine(t, root)
	cases := []struct {
		in   GrepInput
		want string
	}{
		{GrepInput{Pattern: "(?=x)"}, "RE2 (Go's regexp) has no lookaround"},
		{GrepInput{Pattern: "(?=x)"}, "invalid or unsupported Perl syntax: `(?=`"},
		{GrepInput{Pattern: `(a)\1`}, "no backreferences"},
		{GrepInput{Pattern: "x", Glob: "[a"}, "invalid glob"},
		{GrepInput{Pattern: "x", Path: "missing"}, "path not found: missing"},
		{GrepInput{Pattern: "x", Path: "fifo"}, "fifo is a named pipe (FIFO)"},
		{GrepInput{Pattern: "x", Path: "/dev/zero"}, "/dev/zero is a character device"},
	}
	for _, c := range cases {
		_, err := grepFiles(context.Background(), s, c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("grep %+v: %v; want a one-line error with %q", c.in, err, c.want)
		}
	}
	// A directory, and a tree holding a FIFO, are searched; the FIFO is
	// passed over without blocking.
	r := grepPage(t, s, GrepInput{Pattern: "hello"})
	if r.Text != "a.txt:1: hello\ndir/b.txt:1: hello" {
		t.Errorf("tree with a FIFO: %q", r.Text)
	}
	r = grepPage(t, s, GrepInput{Pattern: "hello", Path: "dir"})
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
	writeSearchTree(t, root, map[string]string{"a.txt": b.String(), "b.txt": "x\nhit\n"})
	s := newSearchEngine(t, root)
	r := grepPage(t, s, GrepInput{Pattern: "hit", Context: 2})
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
	r = grepPage(t, s, GrepInput{Pattern: "hit", Context: 1, Limit: 2})
	want = "a.txt-4- line 4\na.txt:5: hit 5\na.txt-6- line 6\na.txt:7: hit 7\na.txt-8- line 8\n\n[2 matches limit reached: at least 3 found. Use limit=4 for more, or refine pattern]"
	if r.Text != want {
		t.Errorf("got\n%s\nwant\n%s", r.Text, want)
	}
}

func TestGrepOutputModes(t *testing.T) {
	root := t.TempDir()
	writeSearchTree(t, root, map[string]string{"a.go": "x\nx\nx\n", "b/c.go": "x\n", "d.md": "y\n", "e.go": "x\n"})
	s := newSearchEngine(t, root)
	r := grepPage(t, s, GrepInput{Pattern: "x", OutputMode: search.ModeFiles})
	if r.Text != "a.go\nb/c.go\ne.go" || r.Details.FileCount != 3 || r.Details.MatchCount != 3 {
		t.Errorf("files_with_matches: %q %+v", r.Text, r.Details)
	}
	r = grepPage(t, s, GrepInput{Pattern: "x", OutputMode: search.ModeCount})
	if r.Text != "a.go:3\nb/c.go:1\ne.go:1" || r.Details.MatchCount != 5 {
		t.Errorf("count: %q %+v", r.Text, r.Details)
	}
	r = grepPage(t, s, GrepInput{Pattern: "x", OutputMode: search.ModeFiles, Limit: 2})
	if r.Text != "a.go\nb/c.go\n\n[2 files limit reached: at least 3 found. Use limit=4 for more, or refine pattern]" || !r.Details.MatchLimitReached {
		t.Errorf("files limit: %q", r.Text)
	}
	r = grepPage(t, s, GrepInput{Pattern: "x", OutputMode: search.ModeCount, Limit: 3})
	if r.Details.MatchLimitReached || r.Details.FileCount != 3 {
		t.Errorf("count limit = files: %q", r.Text)
	}
}

func TestGrepParameters(t *testing.T) {
	root := t.TempDir()
	writeSearchTree(t, root, map[string]string{
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
	s := newSearchEngine(t, root)
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
		if r := grepPage(t, s, c.in); r.Text != c.want {
			t.Errorf("grep %+v\n got %q\nwant %q", c.in, r.Text, c.want)
		}
	}
	// Outside the cwd, paths are absolute.
	other := newSearchEngine(t, t.TempDir())
	if r := grepPage(t, other, GrepInput{Pattern: "three", Path: root}); r.Text != filepath.ToSlash(root)+"/src/c.go:1: needle three" {
		t.Errorf("outside cwd: %q", r.Text)
	}
}
