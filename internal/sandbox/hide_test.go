//go:build linux && !spillway_portable

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hidden directory shows nothing but the writable and shown directories
// beneath it; one that is itself writable (the root) is not hidden.
func TestHiddenDirectories(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)
	rules := d.rules(true)
	if rules.Layers&Namespaces == 0 {
		t.Skip("hiding needs the namespaces layer")
	}
	rules.Writable = []string{d.root, d.tmp}
	rules.Hidden = []string{filepath.Dir(d.root), d.root}
	rules.Shown = []string{d.spill}
	script := `for dir in root spillway-1-abc tmp outside; do cat ../$dir/existing 2>/dev/null || echo "$dir hidden"; done; echo new > ../tmp/new && cat ../tmp/new`
	r := bash(t, rules, d.root, script)
	if got := strings.TrimSpace(r.stdout); got != "old\nold\nold\noutside hidden\nnew" {
		t.Errorf("%q %q", got, r.stderr)
	}
}

// A hidden file reads as empty wherever it is, in the writable root too,
// and writing it reaches nothing; a file under a hidden directory stays
// covered by the directory.
func TestHiddenFiles(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)
	rules := d.rules(true)
	if rules.Layers&Namespaces == 0 {
		t.Skip("hiding needs the namespaces layer")
	}
	rules.Writable = []string{d.root, d.tmp}
	rules.Hidden = []string{filepath.Join(d.root, "existing"), filepath.Join(d.outside, "existing"), d.outside, filepath.Join(d.tmp, "missing")}
	script := `for f in root outside tmp; do echo "$f:$(cat ../$f/existing 2>&1)"; done; echo new >> existing; echo "root again:$(cat existing)"`
	r := bash(t, rules, d.root, script)
	if got := strings.TrimSpace(r.stdout); got != "root:\noutside:cat: ../outside/existing: No such file or directory\ntmp:old\nroot again:" {
		t.Errorf("%q %q", got, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(d.root, "existing")); string(b) != "old\n" {
		t.Errorf("the hidden file in the root became %q", b)
	}
}

// Without the namespaces layer (an unprivileged user where user
// namespaces are off) Landlock hides the same directories: a command
// reads no file of a hidden directory (a serve token's, the console's),
// nor of one hidden beneath another, but still those of the writable and
// shown directories beneath them; and no hidden file outside the
// writable directories. (Names can still be listed: Landlock grants
// listing on the way to what it denies, and that covers all beneath.)
func TestHiddenWithoutNamespaces(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)
	rules := d.rules(false)
	rules.Layers = floor(false)
	if err := os.Mkdir(filepath.Join(d.outside, "console"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d.outside, "console", "token"), []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	audit := filepath.Join(d.tmp, "..", "audit.log")
	if err := os.WriteFile(audit, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := filepath.Dir(d.root)
	rules.Writable = []string{d.root, d.tmp}
	// base holds them all: hidden, but for root and tmp (writable) and
	// the spill directory (shown).
	rules.Hidden = []string{d.outside, filepath.Join(d.outside, "console"), base, audit}
	rules.Shown = []string{d.spill}
	script := `for f in root/existing spillway-1-abc/existing tmp/existing outside/existing outside/console/token audit.log; do cat ../$f 2>/dev/null || echo "$f hidden"; done`
	r := bash(t, rules, d.root, script)
	want := "old\nold\nold\noutside/existing hidden\noutside/console/token hidden\naudit.log hidden"
	if got := strings.TrimSpace(r.stdout); got != want {
		t.Errorf("got %q, want %q (stderr %q)", got, want, r.stderr)
	}
}
