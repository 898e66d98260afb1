//go:build unix && (!linux || spillway_portable)

package confine

import (
	"io/fs"
	"os"
	"syscall"
)

// CheckFD is CheckFile for a raw descriptor fd opened from path.
func (r *Root) CheckFD(fd int, path string) error {
	if r == nil {
		return nil
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return &os.PathError{Op: "stat", Path: path, Err: err}
	}
	return r.checkSame(path, func(found fs.FileInfo) bool {
		fst, ok := found.Sys().(*syscall.Stat_t)
		return ok && fst.Dev == st.Dev && fst.Ino == st.Ino
	})
}
