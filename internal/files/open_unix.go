//go:build unix

package files

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without ever blocking: the open does
// not wait for a FIFO's writer, and the descriptor stays non-blocking, so
// a read of a file that has nothing to give yet (/proc/kmsg, a device)
// fails at once (EAGAIN) instead of waiting forever. os.OpenFile would
// clear O_NONBLOCK on a file the poller cannot watch; os.NewFile keeps it.
func openNoBlock(path string) (*os.File, error) {
	return openFlags(path, syscall.O_RDONLY|syscall.O_NOCTTY)
}

// openDirNoBlock opens the directory path for listing without blocking:
// an entry swapped for a FIFO since the caller's stat fails (ENOTDIR)
// instead of waiting for a writer.
func openDirNoBlock(path string) (*os.File, error) {
	return openFlags(path, syscall.O_RDONLY|syscall.O_DIRECTORY)
}

func openFlags(path string, flag int) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, flag|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
