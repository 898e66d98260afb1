//go:build unix

package spillway_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/tool"
)

// The directories the sandbox hides (a server's token, the console's
// links) are kept from the file tools too, even inside the root: read,
// grep, find and ls through any name never show the token, and no file
// tool writes there.
func TestFileToolsKeepOutOfSecretDirs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	secretDir := filepath.Join(dir, ".config", "spillway")
	const token = "tok3n-5ecret-value"
	if err := os.MkdirAll(secretDir, 0o700); err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(secretDir, "serve-7792.token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secretDir, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	p := spillway.DefaultPolicy()
	p.Spill.Dir = t.TempDir()
	ts, err := spillway.New(spillway.Options{Cwd: dir, Root: dir, Policy: &p, SandboxHidden: []string{secretDir}})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	leaked := func(what, text string) {
		t.Helper()
		if strings.Contains(text, token) {
			t.Errorf("%s shows the token:\n%s", what, text)
		}
	}
	for _, path := range []string{tokenFile, ".config/spillway/serve-7792.token", "link/serve-7792.token"} {
		r, err := ts.Read(ctx, spillway.ReadInput{Path: path})
		if err == nil {
			leaked("read "+path, r.Text)
			if !r.IsError || !strings.Contains(r.Text, "spillway's own secrets") {
				t.Errorf("read %s: not refused: %q", path, r.Text)
			}
		}
	}
	for _, path := range []string{"", secretDir, "link", ".config"} {
		g, err := ts.Grep(ctx, spillway.GrepInput{Pattern: "tok3n", Path: path})
		if err == nil {
			leaked("grep in "+path, g.Text)
		}
		f, err := ts.Find(ctx, spillway.FindInput{Pattern: "*.token", Path: path})
		if err == nil && strings.Contains(f.Text, "serve-7792") {
			t.Errorf("find in %q names the token file:\n%s", path, f.Text)
		}
	}
	l, err := ts.Ls(ctx, spillway.LsInput{Path: secretDir})
	if err == nil && strings.Contains(l.Text, "serve-7792") {
		t.Errorf("ls names the token file:\n%s", l.Text)
	}
	for _, path := range []string{filepath.Join(secretDir, "serve-7792.token"), "link/new.token"} {
		w, err := ts.Write(ctx, tool.WriteInput{Path: path, Content: "forged\n"})
		if err == nil && !w.IsError {
			t.Errorf("write %s: not refused: %q", path, w.Text)
		}
	}
	if b, _ := os.ReadFile(tokenFile); string(b) != token+"\n" {
		t.Errorf("the token file changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(secretDir, "new.token")); err == nil {
		t.Error("a file was written in the secret directory")
	}
}

// A spill directory inside a secret one ($XDG_RUNTIME_DIR/spillway holds
// both a token and the CLI's spill files) stays readable: the session's
// own spill files are what its notices tell the model to read.
func TestSecretDirsLeaveTheSessionsSpillOpen(t *testing.T) {
	ctx := context.Background()
	run := t.TempDir()
	secretDir := filepath.Join(run, "spillway")
	p := spillway.DefaultPolicy()
	p.Spill.Dir = filepath.Join(secretDir, "cli")
	p.Bash.Stdout.MaxLines = 5
	if err := os.MkdirAll(p.Spill.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	ts, err := spillway.New(spillway.Options{Cwd: t.TempDir(), Policy: &p, SandboxHidden: []string{secretDir}})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	r, err := ts.Bash(ctx, spillway.BashInput{Command: "seq 1 100"})
	if err != nil {
		t.Fatal(err)
	}
	path := r.Details.Stdout.FullOutputPath
	if !strings.HasPrefix(path, secretDir) {
		t.Fatalf("the spill file %q is not in %s", path, secretDir)
	}
	page, err := ts.Read(ctx, spillway.ReadInput{Path: path})
	if err != nil || page.IsError || !strings.Contains(page.Text, "100") {
		t.Errorf("read of the session's spill file: %v %q", err, page.Text)
	}
}
