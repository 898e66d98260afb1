package spillway

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/output"
)

// The find tool on a search engine of the default limits.

func findPage(t testing.TB, s *search.Searcher, in FindInput) Result[FindDetails] {
	t.Helper()
	r, err := findFiles(context.Background(), s, in)
	if err != nil {
		t.Fatalf("find %+v: %v", in, err)
	}
	return r
}

// The pi design, find, "Hit result limit (1000 results)".
func TestFindResultLimit(t *testing.T) {
	root := t.TempDir()
	tree := map[string]string{}
	for i := range 1200 {
		tree[fmt.Sprintf("src/file%04d.ts", i)] = ""
	}
	writeSearchTree(t, root, tree)
	s := newSearchEngine(t, root)
	r := findPage(t, s, FindInput{Pattern: "*.ts"})
	lines := strings.Split(r.Text, "\n")
	if len(lines) != 1002 || lines[0] != "src/file0000.ts" || lines[999] != "src/file0999.ts" || lines[1000] != "" {
		t.Errorf("%d lines: %q … %q", len(lines), lines[0], lines[len(lines)-3:])
	}
	// Past the limit the walk counts on, up to twice the limit: all 1200.
	if want := "[1000 results limit reached: 1200 found. Use limit=1200 to list them all]"; lines[1001] != want {
		t.Errorf("notice %q", lines[1001])
	}
	d := r.Details
	if d.Count != 1000 || !d.ResultLimitReached || !d.Truncation.Truncated || d.Truncation.TruncatedBy != output.ByLines {
		t.Errorf("details %+v", d)
	}
	r = findPage(t, s, FindInput{Pattern: "*.ts", Limit: 1200})
	if r.Details.ResultLimitReached || r.Details.Count != 1200 || strings.Contains(r.Text, "limit reached") {
		t.Errorf("limit = results: %+v", r.Details)
	}
}

// The pi design, find, "Hit byte limit (< 1000 results, 50 KiB)".
func TestFindByteLimit(t *testing.T) {
	root := t.TempDir()
	tree := map[string]string{}
	long := strings.Repeat("d", 120)
	for i := range 600 {
		tree[fmt.Sprintf("%s/%s-%03d.txt", long, long, i)] = ""
	}
	writeSearchTree(t, root, tree)
	s := newSearchEngine(t, root)
	r := findPage(t, s, FindInput{Pattern: "*.txt"})
	body, notice, _ := strings.Cut(r.Text, "\n\n")
	if len(body) > 50*1024 || strings.Count(body, "\n")+1 >= 600 {
		t.Errorf("body %d bytes", len(body))
	}
	d := r.Details
	shown := strings.Count(body, "\n") + 1
	if !strings.HasPrefix(notice, fmt.Sprintf("[50.0KB limit reached: %d of 600 results shown. Full output: ", shown)) ||
		!strings.HasSuffix(notice, fmt.Sprintf(". To see the rest: read it with offset=%d limit=%d]", shown+1, 600-shown)) ||
		d.Truncation.TruncatedBy != output.ByBytes || d.ResultLimitReached || d.Count != shown || len(d.Next) != 1 {
		t.Errorf("notice %q details %+v", notice, d)
	}
	full, err := os.ReadFile(d.FullOutputPath)
	if err != nil || strings.Count(string(full), "\n") != 600 {
		t.Errorf("spill file: %v, %d lines", err, strings.Count(string(full), "\n"))
	}
}

func TestFindParameters(t *testing.T) {
	root := t.TempDir()
	writeSearchTree(t, root, map[string]string{
		"src/a.go": "", "src/a_test.go": "", "src/sub/b_test.go": "", "src/sub/c.ts": "",
		"docs/x.md": "", ".hidden/y_test.go": "", ".gitignore": "gen/\n", "gen/z_test.go": "",
		".git/HEAD": "", "empty/": "", "a_test.go/": "",
	})
	if err := os.Symlink("src", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(root, "pipe")); err != nil {
		t.Fatal(err)
	}
	s := newSearchEngine(t, root)
	cases := []struct {
		in   FindInput
		want string
	}{
		{FindInput{Pattern: "*_test.go"}, ".hidden/y_test.go\na_test.go/\nsrc/a_test.go\nsrc/sub/b_test.go"},
		{FindInput{Pattern: "*_test.go", Type: search.TypeFile}, ".hidden/y_test.go\nsrc/a_test.go\nsrc/sub/b_test.go"},
		{FindInput{Pattern: "*", Type: search.TypeDir}, ".hidden/\na_test.go/\ndocs/\nempty/\nsrc/\nsrc/sub/"},
		{FindInput{Pattern: "src/*_test.go"}, "src/a_test.go"},
		{FindInput{Pattern: "src/**/*_test.go"}, "src/a_test.go\nsrc/sub/b_test.go"},
		{FindInput{Pattern: "**/*.{ts,md}"}, "docs/x.md\nsrc/sub/c.ts"},
		{FindInput{Pattern: "*_test.go", Path: "src"}, "src/a_test.go\nsrc/sub/b_test.go"},
		{FindInput{Pattern: "sub/*", Path: "src"}, "src/sub/b_test.go\nsrc/sub/c.ts"},
		{FindInput{Pattern: "./sub/c.ts", Path: "src"}, "src/sub/c.ts"},
		{FindInput{Pattern: "link"}, "link"},
		{FindInput{Pattern: "pipe", Type: search.TypeFile}, "pipe"},
		{FindInput{Pattern: "nothing*"}, "No files found matching pattern"},
		{FindInput{Pattern: "sub/"}, "src/sub/"},
		{FindInput{Pattern: "*_test.go/"}, "a_test.go/"},
	}
	for _, c := range cases {
		if r := findPage(t, s, c.in); r.Text != c.want {
			t.Errorf("find %+v\n got %q\nwant %q", c.in, r.Text, c.want)
		}
	}
	all := findPage(t, s, FindInput{Pattern: "*"})
	lines := strings.Split(all.Text, "\n")
	if !slices.IsSorted(lines) || slices.Contains(lines, "gen/") || slices.Contains(lines, ".git/") {
		t.Errorf("find *:\n%s", all.Text)
	}
	if all.Details.Count != len(lines) {
		t.Errorf("count %d for %d lines", all.Details.Count, len(lines))
	}

	bad := []struct {
		in   FindInput
		want string
	}{
		{FindInput{Pattern: "[a"}, "invalid glob"},
		{FindInput{Pattern: "*", Path: "src/a.go"}, "is a file, not a directory"},
		{FindInput{Pattern: "*", Path: "nope"}, "path not found: nope"},
		{FindInput{Pattern: "*", Path: "pipe"}, "named pipe"},
		{FindInput{Pattern: "src/", Type: search.TypeFile}, "ends in / (directories) but type is file"},
	}
	for _, c := range bad {
		if _, err := findFiles(context.Background(), s, c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("find %+v: %v; want an error with %q", c.in, err, c.want)
		}
	}
}
