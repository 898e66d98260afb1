//go:build !(linux || darwin) || spillway_portable

package sandbox

import (
	"errors"
	"os/exec"
	"testing"
)

// Where there is no sandbox mechanism (and on Linux with the mechanisms
// switched off by -tags spillway_portable), every way in refuses; nothing
// offers to run a command unconfined.
func TestNoMechanismRefuses(t *testing.T) {
	if ok, _, err := Status(); ok || !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Status: %v %v", ok, err)
	}
	if l, err := Check(Rules{Writable: []string{t.TempDir()}}, Landlock); err == nil || l != 0 {
		t.Errorf("Check: layers %v, error %v", l, err)
	}
	cmd := exec.Command("/bin/true")
	if l, err := Wrap(cmd, Rules{}); err == nil || l != nil {
		t.Errorf("Wrap: %v %v", l, err)
	}
}
