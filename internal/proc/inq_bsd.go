//go:build darwin || freebsd

package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// PendingInput counts the bytes waiting in the input queue of the
// terminal whose master is master, by opening its slave, link: the
// master's own FIONREAD counts the program's output instead. ok is
// false when the queue cannot be read.
func PendingInput(master *os.File, link string) (n int, ok bool) {
	if link == "" {
		return 0, false
	}
	fd, err := unix.Open(link, unix.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	defer unix.Close(fd)
	n, err = unix.IoctlGetInt(fd, fionread)
	return n, err == nil
}
