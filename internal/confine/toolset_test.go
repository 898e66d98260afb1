package confine_test

// --root through the library (docs/reliability.md): every file tool refuses "..",
// absolute paths and symlinks out of the root, the session's spill files
// stay readable, and bash starts in the root.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

type toolResult struct {
	text    string
	isError bool
}

// tools runs each file tool on path and returns its result by tool name.
func tools(ts *spillway.Toolset, path string) map[string]toolResult {
	ctx := context.Background()
	r, rerr := ts.Read(ctx, spillway.ReadInput{Path: path})
	g, gerr := ts.Grep(ctx, spillway.GrepInput{Pattern: "secret", Path: path})
	f, ferr := ts.Find(ctx, spillway.FindInput{Pattern: "*", Path: path})
	l, lerr := ts.Ls(ctx, spillway.LsInput{Path: path})
	return map[string]toolResult{
		"read": outcome(r.Text, rerr),
		"grep": outcome(g.Text, gerr),
		"find": outcome(f.Text, ferr),
		"ls":   outcome(l.Text, lerr),
	}
}

// outcome is what a model would read of a call: the error's text when it
// failed, else the result's.
func outcome(text string, err error) toolResult {
	if err != nil {
		return toolResult{err.Error(), true}
	}
	return toolResult{text, false}
}

// workspace makes root/ (with a file, a directory and symlinks out) and
// outside/ (with a secret) in one temp directory.
func workspace(t *testing.T) (root, outside string) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{root + "/sub", outside + "/dir"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		root + "/a.txt":            "hello\n",
		root + "/sub/b.txt":        "world\n",
		outside + "/secret.txt":    "secret\n",
		outside + "/dir/inner.txt": "secret inner\n",
	}
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		root + "/file-link": outside + "/secret.txt",
		root + "/dir-link":  "../outside/dir",
		root + "/sub/up":    "../../outside",
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

func TestEveryFileToolRefusesPathsOutsideTheRoot(t *testing.T) {
	root, outside := workspace(t)
	ts, err := spillway.New(spillway.Options{Root: root, Policy: spillPolicy(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()

	for _, p := range []string{
		"../outside/secret.txt",
		"../outside",
		"sub/../../outside/dir",
		outside + "/secret.txt",
		outside,
		"/etc/passwd",
		"/",
		"file-link",
		"dir-link",
		"dir-link/inner.txt",
		"sub/up/secret.txt",
		"sub/up",
	} {
		for tool, r := range tools(ts, p) {
			if !r.isError || !strings.Contains(r.text, "path "+p+" resolves outside the root "+root) {
				t.Errorf("%s %s: is_error %v, %q; want it refused", tool, p, r.isError, r.text)
			}
			if strings.Contains(r.text, "secret") && !strings.Contains(r.text, "secret.txt") {
				t.Errorf("%s %s: the secret leaked: %q", tool, p, r.text)
			}
		}
	}
}

// TestSearchesInsideTheRootDoNotFollowSymlinksOut: grep and find over the
// whole root never reach what its symlinks point to.
func TestSearchesInsideTheRootDoNotFollowSymlinksOut(t *testing.T) {
	root, _ := workspace(t)
	ts, err := spillway.New(spillway.Options{Root: root, Policy: spillPolicy(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	ctx := context.Background()
	g, err := ts.Grep(ctx, spillway.GrepInput{Pattern: "secret|hello"})
	if err != nil || !strings.Contains(g.Text, "a.txt") || strings.Contains(g.Text, "secret") {
		t.Errorf("grep: %q", g.Text)
	}
	f, err := ts.Find(ctx, spillway.FindInput{Pattern: "*.txt"})
	if err != nil || !strings.Contains(f.Text, "b.txt") || strings.Contains(f.Text, "inner") || strings.Contains(f.Text, "secret") {
		t.Errorf("find: %q", f.Text)
	}
	for tool, r := range tools(ts, "sub") {
		if r.isError && tool != "read" { // read of a directory is an error of its own
			t.Errorf("%s sub: %q", tool, r.text)
		}
	}
	if r, err := ts.Read(ctx, spillway.ReadInput{Path: "sub/../a.txt"}); err != nil || !strings.Contains(r.Text, "hello") {
		t.Errorf("read inside: %q", r.Text)
	}
}

func TestSpillFilesStayReadable(t *testing.T) {
	root, _ := workspace(t)
	ts, err := spillway.New(spillway.Options{Root: root, Policy: spillPolicy(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	ctx := context.Background()
	b, err := ts.Bash(ctx, spillway.BashInput{Command: "seq 1 100000"})
	if err != nil {
		t.Fatal(err)
	}
	path := b.Details.Stdout.FullOutputPath
	if path == "" || strings.HasPrefix(path, root+"/") {
		t.Fatalf("want a spill file outside the root, got %q", path)
	}
	if r, err := ts.Read(ctx, spillway.ReadInput{Path: path, Offset: 99999}); err != nil || !strings.Contains(r.Text, "100000") {
		t.Errorf("read of the spill file: %q", r.Text)
	}
	if g, err := ts.Grep(ctx, spillway.GrepInput{Pattern: "^77777$", Path: path}); err != nil || !strings.Contains(g.Text, "77777") {
		t.Errorf("grep of the spill file: %q", g.Text)
	}
	if l, err := ts.Ls(ctx, spillway.LsInput{Path: filepath.Dir(path)}); err != nil || !strings.Contains(l.Text, filepath.Base(path)) {
		t.Errorf("ls of the spill directory: %q", l.Text)
	}
	// Only this session's spill directory: its parent stays outside.
	if l, err := ts.Ls(ctx, spillway.LsInput{Path: filepath.Dir(filepath.Dir(path))}); err == nil {
		t.Errorf("ls of the temp directory: %q", l.Text)
	}
}

func TestBashStartsInTheRoot(t *testing.T) {
	root, outside := workspace(t)
	ts, err := spillway.New(spillway.Options{Root: root, Policy: spillPolicy(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	if r, err := ts.Bash(context.Background(), spillway.BashInput{Command: "pwd"}); err != nil || !strings.Contains(r.Text, "\n"+root+"\n") {
		t.Errorf("pwd: %q", r.Text)
	}
	if _, err := spillway.New(spillway.Options{Root: root, Cwd: outside}); err == nil || !strings.Contains(err.Error(), "outside the root") {
		t.Errorf("a cwd outside the root: %v", err)
	}
	if _, err := spillway.New(spillway.Options{Root: root + "/nope"}); err == nil {
		t.Error("a root that does not exist was accepted")
	}
}

// spillConfig keeps the session's spill directory in the test's temp
// directory, outside the root.
func spillPolicy(t *testing.T) *spillway.Policy {
	p := spillway.DefaultPolicy()
	p.Spill.Dir = t.TempDir()
	return &p
}
