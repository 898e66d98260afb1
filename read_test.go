package spillway_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// The Toolset's read and ls resolve relative paths against the session's
// cwd and apply the session's policy.
func TestToolsetReadAndLs(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("1\n2\n3\n4\n5\n6\n7\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "Sub"), 0o755)
	p := spillway.DefaultPolicy()
	p.Read.MaxLines = 5
	p.Ls.Limit = 1
	ts, err := spillway.New(spillway.Options{Cwd: dir, Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	ctx := context.Background()

	res, err := ts.Read(ctx, spillway.ReadInput{Path: "f.txt"})
	if err != nil || res.Content != "1\n2\n3\n4\n5\n" || !strings.HasSuffix(res.Text, "[Showing lines 1-5 of 7. Use offset=6 to continue]") {
		t.Fatalf("read: %v %q", err, res.Text)
	}
	var d spillway.ReadDetails = res.Details
	if d.Path != filepath.Join(dir, "f.txt") || d.TotalLines != 7 {
		t.Fatalf("read details: %+v", d)
	}
	res, err = ts.Read(ctx, spillway.ReadInput{Path: "f.txt", Offset: 6, Limit: 100})
	if err != nil || res.Text != "6\n7\n" {
		t.Fatalf("read offset 6: %q", res.Text)
	}

	ls, err := ts.Ls(ctx, spillway.LsInput{})
	if err != nil || ls.Text != "f.txt\n\n[1 entry limit reached: the directory holds 2. Use limit=2 to list them all]" || !ls.Details.EntryLimitReached {
		t.Fatalf("ls: %q %+v", ls.Text, ls.Details)
	}
	if ls, err = ts.Ls(ctx, spillway.LsInput{Limit: 10}); err != nil || ls.Text != "f.txt\nSub/\n" {
		t.Fatalf("ls limit 10: %q", ls.Text)
	}
}
