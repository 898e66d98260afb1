package spillway

import (
	"os"
	"syscall"
)

// inodeAndCtime are what a stat says of a file beside its size and
// mtime: together they tell a file unchanged without reading it.
func inodeAndCtime(fi os.FileInfo) (ino, ctime int64) {
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(s.Ino), s.Ctim.Nano()
	}
	return 0, 0
}
