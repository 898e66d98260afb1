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
