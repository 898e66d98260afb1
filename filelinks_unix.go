//go:build unix

package spillway

import (
	"os"
	"syscall"
)

// linkCount is the number of names (hard links) of the regular file at
// path, or 0 when it is not one or cannot be read.
func linkCount(path string) uint64 {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 0
}
