//go:build unix

package safewrite

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of old, and reports whether it
// could (an unprivileged process may not give a file away).
func keepOwner(f *os.File, old fs.FileInfo) bool {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	cur, err := f.Stat()
	if err != nil {
		return false
	}
	if c, ok := cur.Sys().(*syscall.Stat_t); ok && c.Uid == st.Uid && c.Gid == st.Gid {
		return true
	}
	if err := f.Chown(int(st.Uid), int(st.Gid)); err != nil {
		// The group alone may still be ours to give.
		f.Chown(-1, int(st.Gid))
		return false
	}
	return true
}

// links returns the hard link count of a file.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// identity returns a file's device and inode.
func identity(fi fs.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true
}

// alive reports whether a process of that pid runs (one this process
// may not signal counts).
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
