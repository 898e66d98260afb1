//go:build unix

package shell

import (
	"os"

	"golang.org/x/sys/unix"
)

// pollable returns f, a descriptor in blocking mode, as a file in Go's
// poller, and closes f. pty.Open leaves a terminal's master blocking (its
// ioctls go through Fd), and a blocking file takes no deadline: a write
// to a full terminal would wait forever, and stop could not cut off a
// reader that a process out of reach keeps going.
func pollable(f *os.File) (*os.File, error) {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	name := f.Name()
	f.Close()
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}
