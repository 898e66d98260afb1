package shell

import (
	"regexp"
	"testing"
)

// The hand-written checks of names accept exactly what their regular
// expressions would.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"", "a", "_", "9a", "A_9", "a-b", "a.b", "é", "x y", "abc\n",
		"0123456789012345678901234567890123456789012345678901234567890123", "01234567890123456789012345678901234567890123456789012345678901234"} {
		f.Add(s)
	}
	variable := regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	session := regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validName(s), variable.MatchString(s); got != want {
			t.Errorf("validName(%q) = %v, want %v", s, got, want)
		}
		if got, want := validSessionName(s), session.MatchString(s); got != want {
			t.Errorf("validSessionName(%q) = %v, want %v", s, got, want)
		}
	})
}
