//go:build !(linux || darwin) || spillway_portable

package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"
)

var errUnsupported = fmt.Errorf("the sandbox needs Landlock (Linux) or Seatbelt (macOS), and this build for %s has neither; --sandbox never runs commands unconfined, so run without it only if unconfined commands are acceptable (%w)", runtime.GOOS, errors.ErrUnsupported)

// MaybeRunHelper returns at once: there is no helper on this platform.
func MaybeRunHelper() {}

// Status reports that Landlock is not available.
func Status() (available bool, abi int, err error) { return false, 0, errUnsupported }

// StatusLine says that there is no sandbox here.
func StatusLine() string { return "sandbox layers: none (" + errUnsupported.Error() + ")" }

// Check fails: there is no sandbox here.
func Check(Rules, Layer) (Layer, error) { return 0, errUnsupported }

func wrap(*exec.Cmd, Rules) (*Launch, error) { return nil, errUnsupported }
