//go:build unix

package spillway_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/tool"
)

// A file with another name (a hard link) is changed by edit, write and
// apply_patch only after a question: its other name may be .git/config
// or a file an Edit rule denies, which no path-keyed check sees. Under
// --root it is not changed at all: its other name may be outside.
func TestFileToolsHardLinkAsked(t *testing.T) {
	ctx := context.Background()
	pol := spillway.DefaultPolicy()
	pol.Rules.Deny = []string{"Edit(secret/**)"}
	ts, dir := fileToolset(t, spillway.Options{Policy: &pol})
	writeFile(t, filepath.Join(dir, ".git/config"), "[core]\n")
	writeFile(t, filepath.Join(dir, "secret/k"), "k\n")
	for _, l := range [][2]string{{".git/config", "hcfg"}, {"secret/k", "hk"}} {
		if err := os.Link(filepath.Join(dir, l[0]), filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	calls := map[string]func() (string, bool, error){
		"edit hcfg": func() (string, bool, error) {
			r, err := ts.Edit(ctx, tool.EditInput{Path: "hcfg", OldString: "[core]", NewString: "[core]\n\tfsmonitor = x"})
			return r.Text, r.IsError, err
		},
		"apply_patch hcfg": func() (string, bool, error) {
			r, err := ts.ApplyPatch(ctx, tool.ApplyPatchInput{Input: "*** Begin Patch\n*** Update File: hcfg\n@@\n-[core]\n+[core]\n+\tfsmonitor = x\n*** End Patch"})
			return r.Text, r.IsError, err
		},
		"write hcfg": func() (string, bool, error) {
			r, err := ts.Write(ctx, tool.WriteInput{Path: "hcfg", Content: "x", ExpectedSHA256: sha("[core]\n")})
			return r.Text, r.IsError, err
		},
		"edit hk": func() (string, bool, error) {
			r, err := ts.Edit(ctx, tool.EditInput{Path: "hk", OldString: "k", NewString: "x"})
			return r.Text, r.IsError, err
		},
	}
	for name, call := range calls {
		text, isErr, err := call()
		if err != nil || !isErr || !strings.Contains(text, "hard links") {
			t.Errorf("%s: %v %v %q", name, err, isErr, text)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".git/config")); string(b) != "[core]\n" {
		t.Errorf(".git/config changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "secret/k")); string(b) != "k\n" {
		t.Errorf("secret/k changed: %q", b)
	}
	// A file of one name is changed as before.
	writeFile(t, filepath.Join(dir, "plain.txt"), "a\n")
	if r, err := ts.Edit(ctx, tool.EditInput{Path: "plain.txt", OldString: "a", NewString: "b"}); err != nil || r.IsError {
		t.Fatalf("%v %q", err, r.Text)
	}

	root, outside := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(outside, "o.txt"), "keep\n")
	if err := os.Link(filepath.Join(outside, "o.txt"), filepath.Join(root, "in.txt")); err != nil {
		t.Skipf("no hard link across the two temp directories: %v", err)
	}
	rts, _ := fileToolset(t, spillway.Options{Root: root})
	r, err := rts.Write(ctx, tool.WriteInput{Path: "in.txt", Content: "x", ExpectedSHA256: sha("keep\n")})
	if err != nil || !r.IsError || !strings.Contains(r.Text, "outside the root") || !strings.Contains(r.Text, "cp -p in.txt in.txt.copy && mv in.txt.copy in.txt") {
		t.Errorf("write under --root: %v %q", err, r.Text)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "o.txt")); string(b) != "keep\n" {
		t.Errorf("the file outside the root changed: %q", b)
	}
	// What the refusal says to do works: the copy is changed, the file
	// outside is not.
	if err := exec.Command("sh", "-c", "cd '"+root+"' && cp -p in.txt in.txt.copy && mv in.txt.copy in.txt").Run(); err != nil {
		t.Fatal(err)
	}
	if r, err := rts.Edit(ctx, tool.EditInput{Path: "in.txt", OldString: "keep", NewString: "changed"}); err != nil || r.IsError {
		t.Fatalf("edit of the copy: %v %q", err, r.Text)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "o.txt")); string(b) != "keep\n" {
		t.Errorf("the file outside the root changed: %q", b)
	}
}

// Under --root, read of a hard link inside the root to a file outside it
// returns the file's content: a link is a name the file's owner gave it
// inside the root, as much as a copy would be, and refusing files with
// more than one name would refuse every file pnpm or uv installed into
// the project (hard links to their stores, outside it). Under --sandbox
// a command cannot make such a link (internal/sandbox,
// TestLinkFromOutsideIsDenied); docs/reliability.md gives the reasoning.
func TestRootReadOfHardLinkToOutside(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(outside, "store-file.js"), "module.exports = 1\n")
	if err := os.Link(filepath.Join(outside, "store-file.js"), filepath.Join(root, "dep.js")); err != nil {
		t.Skipf("no hard link across the two temp directories: %v", err)
	}
	ts, _ := fileToolset(t, spillway.Options{Root: root})
	r, err := ts.Read(context.Background(), spillway.ReadInput{Path: "dep.js"})
	if err != nil || r.IsError || !strings.Contains(r.Text, "module.exports = 1") {
		t.Fatalf("read of the link: %v %q", err, r.Text)
	}
	// The outside name itself stays out of reach.
	r, err = ts.Read(context.Background(), spillway.ReadInput{Path: filepath.Join(outside, "store-file.js")})
	if err == nil && !r.IsError {
		t.Fatalf("read of the outside name under --root: %q", r.Text)
	}
}

// A Read rule holds a file by any of its names: envhl, a hard link to
// .env, is hidden from grep, find and ls and not read under
// Read(./.env), and a hard link to a file of an ask rule keeps its
// contents out of grep. A linked file no rule holds is read as before.
func TestReadRulesHardLink(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".env"), "SECRET=needle\n")
	writeFile(t, filepath.Join(dir, "notes/n.md"), "needle in notes\n")
	writeFile(t, filepath.Join(dir, "a.txt"), "needle\n")
	for _, l := range [][2]string{{".env", "envhl"}, {"notes/n.md", "nl"}, {"a.txt", "al"}} {
		if err := os.Link(filepath.Join(dir, l[0]), filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	pol := spillway.DefaultPolicy()
	pol.Rules.Deny = []string{"Read(./.env)"}
	pol.Rules.Ask = []string{"Read(notes/**)"}
	ts := bashToolset(t, spillway.Options{Cwd: dir, Policy: &pol})
	ctx := context.Background()
	r, err := ts.Read(ctx, spillway.ReadInput{Path: "envhl"})
	if err != nil || !r.IsError || strings.Contains(r.Text, "SECRET") || !strings.Contains(r.Text, "denied") {
		t.Errorf("read envhl: %v %q", err, r.Text)
	}
	r, err = ts.Read(ctx, spillway.ReadInput{Path: "nl"})
	if err != nil || !r.IsError || strings.Contains(r.Text, "needle") {
		t.Errorf("read nl: %v %q", err, r.Text)
	}
	if r, err := ts.Read(ctx, spillway.ReadInput{Path: "al"}); err != nil || r.IsError || !strings.Contains(r.Text, "needle") {
		t.Errorf("read al: %v %q", err, r.Text)
	}
	g, err := ts.Grep(ctx, spillway.GrepInput{Pattern: "needle", OutputMode: "content"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(g.Content, "SECRET") || strings.Contains(g.Content, "in notes") || !strings.Contains(g.Content, "al") {
		t.Errorf("grep:\n%s", g.Text)
	}
	f, err := ts.Find(ctx, spillway.FindInput{Pattern: "*"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(f.Content, "envhl") || !strings.Contains(f.Content, "al") {
		t.Errorf("find:\n%s", f.Text)
	}
	l, err := ts.Ls(ctx, spillway.LsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(l.Content, "envhl") || !strings.Contains(l.Content, "al") {
		t.Errorf("ls:\n%s", l.Text)
	}
}

// read of a hard-linked file whose last in-place write was interrupted
// (its sidecar is beside it) says so, and where the old content is:
// what it shows may be a mix of new and old.
func TestReadNamesAnInterruptedInPlaceWrite(t *testing.T) {
	ts, dir := fileToolset(t, spillway.Options{})
	writeFile(t, filepath.Join(dir, "f"), "NEW old\n")
	if err := os.Link(filepath.Join(dir, "f"), filepath.Join(dir, "g")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := ts.Read(ctx, spillway.ReadInput{Path: "f"})
	if err != nil || r.IsError || strings.Contains(r.Text, "interrupted") {
		t.Fatalf("read with no sidecar: %v %q", err, r.Text)
	}
	// The sidecar a killed in-place write leaves (internal/safewrite
	// and internal/filechange kill one; here it is laid down by hand).
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Join(dir, "f"), &st); err != nil {
		t.Fatal(err)
	}
	side := filepath.Join(dir, fmt.Sprintf(".spillway-inplace-%d-%d", st.Dev, st.Ino))
	writeFile(t, side+".old", "old old\n")
	writeFile(t, side+".json", fmt.Sprintf(`{"name":"f","dev":%d,"ino":%d}`, st.Dev, st.Ino))
	for _, name := range []string{"f", "g"} {
		r, err = ts.Read(ctx, spillway.ReadInput{Path: name})
		if err != nil || r.IsError || !strings.Contains(r.Text, "NEW old") || !strings.Contains(r.Text, "interrupted") || !strings.Contains(r.Text, side+".old") {
			t.Errorf("read %s with the sidecar: %v %q", name, err, r.Text)
		}
	}
}
