package main

import (
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/proc"
)

// version says in one line whether each session's commands run in a
// cgroup of their own here, and when not, why not.
func TestVersionSaysCgroups(t *testing.T) {
	r := newBashCLI(t).run(t, "version")
	_, line, ok := strings.Cut(r.stdout, "\ncgroups: ")
	line, _, _ = strings.Cut(line, "\n")
	inUse, where := proc.CgroupStatus()
	want := "not used (" + where + ")"
	if inUse {
		want = "under " + where + " "
	}
	if !ok || !strings.Contains(line, want) {
		t.Errorf("version's cgroups line %q, want it to hold %q:\n%s", line, want, r.stdout)
	}
}
