//go:build unix

package files

import (
	"io/fs"
	"syscall"
)

// identity returns the device, inode and ctime of a file as its stat
// gave them.
func identity(fi fs.FileInfo) (dev, ino uint64, ctime int64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0
	}
	return uint64(st.Dev), uint64(st.Ino), ctimeOf(st)
}
