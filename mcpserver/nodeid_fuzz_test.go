package mcpserver

import (
	"regexp"
	"testing"
)

// The hand-written check of a node id accepts exactly what its regular
// expression would.
func FuzzNodeID(f *testing.F) {
	for _, s := range []string{"", "a", "pod-7_x", "a.b", "é", "x y",
		"012345678901234567890123456789012345678901234567890123456789012", "0123456789012345678901234567890123456789012345678901234567890123"} {
		f.Add(s)
	}
	want := regexp.MustCompile(`^[A-Za-z0-9_-]{1,63}$`)
	f.Fuzz(func(t *testing.T, s string) {
		if got := validNodeID(s); got != want.MatchString(s) {
			t.Errorf("validNodeID(%q) = %v, want %v", s, got, !got)
		}
	})
}
