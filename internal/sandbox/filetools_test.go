package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/sandbox"
)

// Under --sandbox the file tools run in the server, which may write
// anywhere its user may; they write only where a sandboxed command may:
// the root and the session's private temp directory, never the shared
// temp directory, a spill directory, or outside the root through a
// symlink. Each path is tried by a command and by write, edit and
// apply_patch, and the two must agree.
func TestToolsetSandboxFileToolsWriteWhereCommandsMay(t *testing.T) {
	if ok, abi, err := sandbox.Status(); !ok || abi < sandbox.FilesABI {
		t.Skipf("Landlock ABI %d here (%v); the sandbox needs %d", abi, err, sandbox.FilesABI)
	}
	base := t.TempDir()
	root, outside, shared := filepath.Join(base, "root"), filepath.Join(base, "outside"), filepath.Join(base, "tmp")
	for _, d := range []string{root, outside, shared} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", shared)
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	p := spillway.DefaultPolicy()
	p.Spill.Dir = filepath.Join(base, "spill")
	ts, err := spillway.New(spillway.Options{Root: root, Sandbox: true, Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	ctx := context.Background()

	r := bash(t, ts, `printf '%s\n' "$TMPDIR"`)
	private := strings.TrimSpace(r.Content)
	if r.IsError || private == "" || !strings.HasPrefix(private, ts.SpillDir()+"/") {
		t.Fatalf("the session's private temp directory: %q (spill directory %q)", r.Text, ts.SpillDir())
	}
	spillDir := ts.SpillDir()

	cases := []struct {
		name, dir string
		may       bool
	}{
		{"the root", root, true},
		{"a new directory under the root", filepath.Join(root, "new", "sub"), true},
		{"the private temp directory", private, true},
		{"outside the root", outside, false},
		{"through a symlink out of the root", filepath.Join(root, "out"), false},
		{"the shared temp directory", shared, false},
		{"the spill directory", spillDir, false},
	}
	for _, c := range cases {
		byCmd := filepath.Join(c.dir, "by-command")
		r := bash(t, ts, "mkdir -p '"+c.dir+"' && printf 'x\\n' > '"+byCmd+"'")
		if cmdOK := !r.IsError && exists(byCmd); cmdOK != c.may {
			t.Fatalf("%s: a sandboxed command writes there: %v, want %v (%q)", c.name, cmdOK, c.may, r.Text)
		}

		// write: a new file, the same as a command's.
		target := filepath.Join(c.dir, "by-write")
		w, err := ts.Write(ctx, spillway.WriteInput{Path: target, Content: "new\n"})
		if wrote := err == nil && !w.IsError; wrote != c.may || exists(target) != c.may {
			t.Errorf("%s: write: wrote %v (%v %q), the file exists %v; a command may write there: %v", c.name, wrote, err, w.Text, exists(target), c.may)
		}
		if !c.may && err != nil && !strings.Contains(err.Error(), "outside") && !strings.Contains(err.Error(), "spill directory") {
			t.Errorf("%s: the refusal does not say why: %v", c.name, err)
		}

		// edit and apply_patch of a file already there, which only the
		// server (here the test) could have made.
		victim := filepath.Join(c.dir, "victim")
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(victim, []byte("keep\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		e, err := ts.Edit(ctx, spillway.EditInput{Path: victim, OldString: "keep", NewString: "edited"})
		if edited := err == nil && !e.IsError; edited != c.may {
			t.Errorf("%s: edit: edited %v (%v %q), want %v", c.name, edited, err, e.Text, c.may)
		}
		patch := "*** Begin Patch\n*** Update File: " + victim + "\n@@\n-" + map[bool]string{true: "edited", false: "keep"}[c.may] +
			"\n+patched\n*** Add File: " + filepath.Join(c.dir, "by-patch") + "\n+added\n*** End Patch\n"
		a, err := ts.ApplyPatch(ctx, spillway.ApplyPatchInput{Input: patch})
		if patched := err == nil && !a.IsError; patched != c.may {
			t.Errorf("%s: apply_patch: applied %v (%v %q), want %v", c.name, patched, err, a.Text, c.may)
		}
		want := map[bool]string{true: "patched\n", false: "keep\n"}[c.may]
		if got := content(t, victim); got != want {
			t.Errorf("%s: the file holds %q, want %q", c.name, got, want)
		}
		if exists(filepath.Join(c.dir, "by-patch")) != c.may {
			t.Errorf("%s: the patch's added file exists: %v, want %v", c.name, !c.may, c.may)
		}
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
