package files

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

// A listing holds the first names in order, however many the directory
// holds, and counts them all and their bytes.
func TestListKeepsFirstNames(t *testing.T) {
	tl, dir := newTestTools(t, Config{Ls: tool.LsPolicy{Limit: 5, MaxBytes: 100, MaxTokens: 7}})
	var all []string
	for i := 0; i < 40; i++ {
		n := fmt.Sprintf("f%02d", 39-i)
		if i%2 == 0 {
			n = strings.ToUpper(n)
		}
		writeFile(t, dir, n, "")
		all = append(all, n)
	}
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.Symlink("d", filepath.Join(dir, "e"))
	all = append(all, "d/", "e@")
	slices.SortFunc(all, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	var bytes int64
	for _, n := range all {
		bytes += int64(len(n)) + 1
	}

	l, err := tl.List(context.Background(), tool.LsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.Names, all[:5]) || l.Total != 42 || l.TotalBytes != bytes || l.Policy != (tool.LsPolicy{Limit: 5, MaxBytes: 100, MaxTokens: 7}) {
		t.Fatalf("%+v, want names %q", l, all[:5])
	}
	l, err = tl.List(context.Background(), tool.LsInput{Path: ".", Limit: 100})
	if err != nil || !slices.Equal(l.Names, all) || l.Policy.Limit != 100 {
		t.Fatalf("limit 100: %v %+v", err, l)
	}
}

// Entries Hide hides are left out of a listing, counted apart from
// Total and named by what hid them; a hidden directory is not listed.
func TestListHides(t *testing.T) {
	var dir string
	hide := func(p string) string {
		switch rel, _ := filepath.Rel(dir, p); {
		case filepath.Base(rel) == ".env":
			return "env"
		case rel == "secrets" || strings.HasPrefix(rel, "secrets/"):
			return "secrets"
		}
		return ""
	}
	tl, d := newTestTools(t, Config{Hide: hide})
	dir = d
	for _, f := range []string{"a", ".env", "secrets/k", "sub/.env"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		writeFile(t, dir, f, "x")
	}
	l, err := tl.List(context.Background(), tool.LsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(l.Names, " ") != "a sub/" || l.Total != 2 || l.Hidden != 2 || strings.Join(l.HiddenBy, ",") != "env,secrets" {
		t.Errorf("names %q, total %d, hidden %d by %q; want a, sub/ and 2 hidden by env, secrets", l.Names, l.Total, l.Hidden, l.HiddenBy)
	}
	l, err = tl.List(context.Background(), tool.LsInput{Path: "sub"})
	if err != nil || len(l.Names) != 0 || l.Total != 0 || l.Hidden != 1 {
		t.Errorf("ls sub: %v %q total %d hidden %d", err, l.Names, l.Total, l.Hidden)
	}
	if _, err := tl.List(context.Background(), tool.LsInput{Path: "secrets"}); err == nil || !strings.Contains(err.Error(), "is hidden by the Read rule secrets") {
		t.Errorf("ls secrets: %v, want an error that says it is hidden", err)
	}
}
