//go:build unix

package spill

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// oNoFollow makes an open fail on a symlink.
const oNoFollow = unix.O_NOFOLLOW

// ownerUID returns the uid that owns the file fi describes.
func ownerUID(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// lock takes the directory's lock without waiting; false when another
// holder has it.
func (d *privateDir) lock() (bool, error) {
	err := unix.Flock(int(d.self.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
