//go:build !(linux || darwin) || spillway_portable

package spillway_test

import (
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// --sandbox fails at start where there is no mechanism to confine
// commands (here: the build without Landlock and Seatbelt); it never
// starts a toolset that would run them unconfined.
func TestSandboxRefusesToStartWithoutAMechanism(t *testing.T) {
	for _, noNet := range []bool{false, true} {
		ts, err := spillway.New(spillway.Options{Root: t.TempDir(), Sandbox: true, NoNetwork: noNet})
		if err == nil {
			ts.Close()
			t.Fatalf("no-network %v: a sandboxed toolset started without a mechanism", noNet)
		}
		if !strings.Contains(err.Error(), "needs Landlock (Linux) or Seatbelt (macOS)") {
			t.Errorf("no-network %v: %v", noNet, err)
		}
	}
}
