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

// fileID is a file's identity: every name of one file has it.
type fileID struct{ dev, ino uint64 }

// idOf is the identity of the regular file at path.
func idOf(path string) (fileID, bool) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return fileID{}, false
	}
	s, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(s.Dev), uint64(s.Ino)}, true
}
