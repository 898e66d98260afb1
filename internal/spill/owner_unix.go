//go:build unix

package spill

import (
	"errors"
	"os"
	"syscall"
)

func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownerUID returns the uid that owns the file fi describes.
func ownerUID(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

func ownedByMe(info os.FileInfo) bool {
	uid, ok := ownerUID(info)
	return ok && uid == os.Getuid()
}
