//go:build unix

package shell

import (
	"os"

	"golang.org/x/sys/unix"
)

// awaitReadable waits, through the runtime's poller and holding no
// buffer, until f has something to read (data, its end, or an error),
// and reports false when the wait itself failed (the reader was stopped,
// or f closed). A reader that waited inside f.Read held its 32 KiB
// buffer for as long as the job printed nothing: two a running job, most
// of the memory of a node of thousands of idle jobs.
func awaitReadable(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return true // let the read find out
	}
	err = rc.Read(func(fd uintptr) bool {
		// The poller waits only for new input: what is already there
		// is asked of the kernel first.
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		return err != nil || n > 0
	})
	return err == nil
}
