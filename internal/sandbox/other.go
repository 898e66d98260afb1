//go:build !linux

package sandbox

import (
	"errors"
	"os/exec"
)

var errUnsupported = errors.New("the sandbox needs Linux (Landlock) on this platform")

// MaybeRunHelper returns at once: there is no helper on this platform.
func MaybeRunHelper() {}

// Status reports that Landlock is not available.
func Status() (available bool, abi int, err error) { return false, 0, errUnsupported }

// StatusLine says that there is no sandbox here.
func StatusLine() string { return "sandbox layers: none (" + errUnsupported.Error() + ")" }

// Check fails: there is no sandbox here.
func Check(Rules, Layer) (Layer, error) { return 0, errUnsupported }

func wrap(*exec.Cmd, Rules) (*Launch, error) { return nil, errUnsupported }
