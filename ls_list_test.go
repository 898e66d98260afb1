package spillway

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/output"
)

// The ls tool on a file engine of its own limits, without a spill store.

func listPage(t *testing.T, tl *files.Tools, in LsInput) Result[LsDetails] {
	t.Helper()
	res, err := listDir(context.Background(), tl, nil, in)
	if err != nil {
		t.Fatalf("ls %+v: %v", in, err)
	}
	return res
}

func TestLsSortsAndMarks(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	for _, f := range []string{"b.txt", "A.txt", ".hidden", "a.md", "Zeta", "_under"} {
		writeTestFile(t, dir, f, "x")
	}
	os.Mkdir(filepath.Join(dir, "src"), 0o755)
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	os.Symlink("src", filepath.Join(dir, "link"))
	os.Symlink("nowhere", filepath.Join(dir, "dangling"))
	res := listPage(t, tl, LsInput{})
	want := ".git/\n.hidden\n_under\na.md\nA.txt\nb.txt\ndangling@\nlink@\nsrc/\nZeta\n"
	if res.Text != want {
		t.Fatalf("got\n%s\nwant\n%s", res.Text, want)
	}
	if res.Details.Count != 10 || res.Details.EntryLimitReached || res.Details.Truncation.Truncated {
		t.Fatalf("details %+v", res.Details)
	}
	if res.Content != want {
		t.Fatalf("entries %q", res.Content)
	}
	// The same listing by absolute path and through the symlink.
	if r := listPage(t, tl, LsInput{Path: dir}); r.Text != want {
		t.Fatalf("absolute: %q", r.Text)
	}
	writeTestFile(t, dir, "src/main.go", "package main\n")
	if r := listPage(t, tl, LsInput{Path: "link"}); r.Text != "main.go\n" {
		t.Fatalf("through a symlink: %q", r.Text)
	}
}

func TestLsEmptyDirectory(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	os.Mkdir(filepath.Join(dir, "e"), 0o755)
	res := listPage(t, tl, LsInput{Path: "e"})
	if res.Text != "(empty directory)" || res.Details.Count != 0 || res.Details.Truncation.Truncated {
		t.Fatalf("%q %+v", res.Text, res.Details)
	}
}

// the pi design's ls table under the default limits: 500 entries, then 50 KiB.
func TestLsEntryLimit(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	var names []string
	for i := 0; i < 600; i++ {
		n := fmt.Sprintf("f%04d.txt", 599-i)
		if i%3 == 0 {
			n = strings.ToUpper(n)
		}
		names = append(names, n)
		writeTestFile(t, dir, n, "")
	}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	res := listPage(t, tl, LsInput{})
	want := strings.Join(names[:500], "\n") + "\n\n[500 entries limit reached: the directory holds 600. Use limit=600 to list them all]"
	if res.Text != want {
		t.Fatalf("text ends %q", res.Text[len(res.Text)-200:])
	}
	d := res.Details
	if d.Count != 500 || !d.EntryLimitReached {
		t.Fatalf("details %+v", d)
	}
	if tr := d.Truncation; !tr.Truncated || tr.TruncatedBy != output.ByLines || tr.TotalLines != 600 || tr.OutputLines != 500 {
		t.Fatalf("truncation %+v", tr)
	}
	res = listPage(t, tl, LsInput{Limit: 1000})
	if res.Text != strings.Join(names, "\n")+"\n" || res.Details.Count != 600 || res.Details.EntryLimitReached {
		t.Fatalf("limit 1000: %d entries, %+v", res.Details.Count, res.Details)
	}
	res = listPage(t, tl, LsInput{Limit: 7})
	if !strings.HasSuffix(res.Text, names[6]+"\n\n[7 entries limit reached: the directory holds 600. Use limit=600 to list them all]") {
		t.Fatalf("limit 7: %q", res.Text)
	}
}

func TestLsByteLimit(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{Ls: LsPolicy{Limit: 500, MaxBytes: 1000}})
	for i := 0; i < 200; i++ {
		writeTestFile(t, dir, fmt.Sprintf("%03d-%s", i, strings.Repeat("n", 16)), "") // 21 bytes a line
	}
	res := listPage(t, tl, LsInput{})
	if !strings.HasSuffix(res.Text, "\n\n[1000B limit reached: 47 of 200 entries shown]") {
		t.Fatalf("%q", res.Text)
	}
	if tr := res.Details.Truncation; !tr.Truncated || tr.TruncatedBy != output.ByBytes || tr.OutputLines != 47 || tr.OutputBytes > 1000 || res.Details.Count != 47 {
		t.Fatalf("details %+v", res.Details)
	}
}

func TestLsErrors(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	writeTestFile(t, dir, "f.txt", "x")
	cases := []struct {
		in   LsInput
		want string
	}{
		{LsInput{Path: "f.txt"}, filepath.Join(dir, "f.txt") + " is a file, not a directory. Use read to see its contents"},
		{LsInput{Path: "nope"}, "directory not found: " + filepath.Join(dir, "nope") + ". Use find to locate it"},
		{LsInput{Path: "/dev/null"}, "/dev/null is not a directory"},
	}
	for _, c := range cases {
		_, err := listDir(context.Background(), tl, nil, c.in)
		if err == nil || err.Error() != c.want && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.in, err, c.want)
		}
	}
}

func TestLsPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root lists any directory")
	}
	tl, dir := newFileTools(t, files.Config{})
	p := filepath.Join(dir, "closed")
	os.Mkdir(p, 0)
	defer os.Chmod(p, 0o755)
	if _, err := listDir(context.Background(), tl, nil, LsInput{Path: "closed"}); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("%q", err)
	}
}
