package files

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

// newTestTools returns file tools rooted in a new temporary directory.
func newTestTools(t *testing.T, cfg Config) (*Tools, string) {
	t.Helper()
	dir := t.TempDir()
	cfg.Cwd = dir
	return New(cfg), dir
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// numbered returns lines "line 1\n" … "line n\n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// linesOf returns lines from..to (1-based, inclusive) of s.
func linesOf(s string, from, to int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[from-1:to], "")
}

func read(t *testing.T, tl *Tools, in tool.ReadInput) Page {
	t.Helper()
	p, err := tl.Read(context.Background(), in)
	if err != nil {
		t.Fatalf("read %+v: %v", in, err)
	}
	return p
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/a.txt":   "/tmp/a.txt",
		"/tmp/a b.txt": "'/tmp/a b.txt'",
		"it's":         `'it'\''s'`,
		"$HOME/x":      `'$HOME/x'`,
		"":             "''",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
