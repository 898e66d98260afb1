//go:build !linux || spillway_portable

package confine

import "testing"

// openModes are the ways Open can open beneath a directory on this build:
// through os.Root only.
var openModes = []string{"os.Root"}

func setOpenMode(*testing.T, string) {}
