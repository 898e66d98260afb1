//go:build linux && !spillway_portable

package sandbox

import (
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
