//go:build linux && !spillway_portable

package confine

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// openModes are the ways Open can open beneath a directory on this build.
var openModes = []string{"openat2", "proc-fd"}

// setOpenMode forces the openat2 path or the /proc/self/fd check.
func setOpenMode(t *testing.T, mode string) {
	use := mode == "openat2"
	if use {
		if _, err := newRoot(t, t.TempDir()).Open("", ".", os.O_RDONLY); errors.Is(err, syscall.ENOSYS) || noOpenat2.Load() {
			t.Skip("openat2 is not available on this kernel")
		}
	}
	old := noOpenat2.Load()
	noOpenat2.Store(!use)
	t.Cleanup(func() { noOpenat2.Store(old) })
}
