package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// PendingInput counts the bytes waiting in the input queue of the
// terminal whose master is master: what the program reading the
// terminal would read before anything written next. ok is false when
// the queue cannot be read.
//
// The queue is the slave's, which the master's own FIONREAD does not
// count (it counts the program's output not yet read), so the slave is
// opened for the count: TIOCGPTPEER names it through the master, with
// no path that could be swapped; a kernel before 4.13 opens the path.
// The server is not in the terminal's process groups, so it is never
// taken for one of its readers. In canonical mode the kernel counts
// whole lines only: a partial line typed ahead is read with the answer
// by the same reader, as one line.
func PendingInput(master *os.File, link string) (n int, ok bool) {
	c, err := master.SyscallConn()
	if err != nil {
		return 0, false
	}
	peer := -1
	flags := unix.O_RDONLY | unix.O_NOCTTY | unix.O_NONBLOCK | unix.O_CLOEXEC
	c.Control(func(fd uintptr) {
		r, _, errno := unix.Syscall(unix.SYS_IOCTL, fd, unix.TIOCGPTPEER, uintptr(flags))
		if errno == 0 {
			peer = int(r)
		}
	})
	if peer < 0 {
		if link == "" {
			return 0, false
		}
		if peer, err = unix.Open(link, flags, 0); err != nil {
			return 0, false
		}
	}
	defer unix.Close(peer)
	n, err = unix.IoctlGetInt(peer, unix.TIOCINQ)
	return n, err == nil
}
