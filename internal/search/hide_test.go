package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/tool"
)

// hideTree is a tree in which every file holds "needle": .env and the
// directory secrets/ are hidden from names and contents (rule "deny"),
// ask.txt from contents only (rule "ask"). The Searcher records every
// path it asks about.
func hideTree(t *testing.T) (*Searcher, string, *[]string) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"a.txt", "b.go", ".env", "ask.txt", "secrets/k.txt", "secrets/sub/x.go", "sub/.env", "sub/c.go"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("needle\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var asked []string
	hide := func(p string, contents bool) string {
		mu.Lock()
		asked = append(asked, p)
		mu.Unlock()
		rel, _ := filepath.Rel(dir, p)
		switch {
		case filepath.Base(rel) == ".env", rel == "secrets", strings.HasPrefix(rel, "secrets/"):
			return "deny"
		case rel == "ask.txt" && contents:
			return "ask"
		}
		return ""
	}
	store := spill.NewSession(spill.Config{TempDir: t.TempDir()})
	t.Cleanup(func() { store.Close() })
	return New(Config{Cwd: dir, Spill: store, Hide: hide}), dir, &asked
}

// What Hide hides is neither searched nor named by grep and find, and
// each result counts it and names the rules; a hidden directory is
// never listed; a path parameter that is hidden is an error.
func TestHideKeepsPathsOut(t *testing.T) {
	s, dir, asked := hideTree(t)
	ctx := context.Background()

	f, err := s.Grep(ctx, tool.GrepInput{Pattern: "needle"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := shown(f.Lines), "a.txt:1: needle\nb.go:1: needle\nsub/c.go:1: needle"; got != want {
		t.Errorf("grep shows\n%s\nwant\n%s", got, want)
	}
	// .env, ask.txt, secrets/ and sub/.env.
	if f.Hidden != 4 || strings.Join(f.HiddenBy, ",") != "deny,ask" {
		t.Errorf("grep: hidden %d by %q, want 4 by deny,ask", f.Hidden, f.HiddenBy)
	}
	for _, p := range *asked {
		if strings.HasPrefix(p, filepath.Join(dir, "secrets")+"/") {
			t.Errorf("the hidden directory was listed: %s was asked about", p)
		}
	}

	// In files mode and with a glob: a hidden file the glob leaves out
	// is not counted, a hidden directory is (its contents unseen).
	f, err = s.Grep(ctx, tool.GrepInput{Pattern: "needle", Glob: "*.go", OutputMode: ModeFiles})
	if err != nil {
		t.Fatal(err)
	}
	if got := shown(f.Lines); got != "b.go\nsub/c.go" || f.Hidden != 1 {
		t.Errorf("grep *.go: %q, hidden %d; want b.go, sub/c.go and 1 hidden", got, f.Hidden)
	}

	n, err := s.Find(ctx, tool.FindInput{Pattern: "*"})
	if err != nil {
		t.Fatal(err)
	}
	// ask.txt is named: an ask rule keeps only contents out.
	if got, want := shown(n.Lines), "a.txt\nask.txt\nb.go\nsub/\nsub/c.go"; got != want {
		t.Errorf("find shows\n%s\nwant\n%s", got, want)
	}
	if n.Hidden != 3 || strings.Join(n.HiddenBy, ",") != "deny" {
		t.Errorf("find: hidden %d by %q, want 3 by deny", n.Hidden, n.HiddenBy)
	}
	n, err = s.Find(ctx, tool.FindInput{Pattern: "**/x.go"})
	if err != nil {
		t.Fatal(err)
	}
	if n.Count != 0 || n.Hidden != 1 {
		t.Errorf("find **/x.go: %q, hidden %d; want nothing and secrets/ hidden", shown(n.Lines), n.Hidden)
	}

	for _, c := range []struct {
		tool, path string
		run        func() error
	}{
		{"grep", ".env", func() error { _, err := s.Grep(ctx, tool.GrepInput{Pattern: "needle", Path: ".env"}); return err }},
		{"grep", "ask.txt", func() error { _, err := s.Grep(ctx, tool.GrepInput{Pattern: "needle", Path: "ask.txt"}); return err }},
		{"grep", "secrets/sub", func() error {
			_, err := s.Grep(ctx, tool.GrepInput{Pattern: "needle", Path: "secrets/sub"})
			return err
		}},
		{"find", "secrets", func() error { _, err := s.Find(ctx, tool.FindInput{Pattern: "*", Path: "secrets"}); return err }},
	} {
		err := c.run()
		if err == nil || !strings.Contains(err.Error(), c.path+" is hidden by the Read rule") {
			t.Errorf("%s path=%s: %v, want an error that says it is hidden", c.tool, c.path, err)
		}
	}
	// ask.txt's name is not hidden: find may start there.
	if _, err := s.Find(ctx, tool.FindInput{Pattern: "*", Path: "sub"}); err != nil {
		t.Errorf("find path=sub: %v", err)
	}
}

// Through a symlink to the tree, a path is hidden as it really is.
func TestHideThroughSymlink(t *testing.T) {
	s, dir, _ := hideTree(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	f, err := s.Grep(context.Background(), tool.GrepInput{Pattern: "needle", Path: link, OutputMode: ModeFiles})
	if err != nil {
		t.Fatal(err)
	}
	if got := shown(f.Lines); strings.Contains(got, ".env") || strings.Contains(got, "secrets") || f.Hidden != 4 {
		t.Errorf("grep through a link: %q, hidden %d", got, f.Hidden)
	}
}
