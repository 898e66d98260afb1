// Package testfs makes file systems for tests: a small one that fills up,
// for what a full disk does to spill files and results.
package testfs

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// Small mounts a tmpfs of size bytes ("64k") on a new temporary
// directory, unmounted when the test ends, and returns the directory. It
// skips the test where a tmpfs cannot be mounted (not root, no
// CAP_SYS_ADMIN, another system).
func Small(t testing.TB, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small file system")
	}
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}
