package search

import (
	"os"
	"syscall"
	"testing"
)

// memDir returns a temporary directory in memory (/dev/shm) when it has
// room for size bytes, so that a big test file costs no disk writeback.
func memDir(t *testing.T, size int64) string {
	t.Helper()
	var st syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &st) == nil && int64(st.Bavail)*st.Bsize > 2*size {
		dir, err := os.MkdirTemp("/dev/shm", "spillway-search-")
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}
