//go:build unix && (!linux || spillway_portable)

package search

import (
	"os"
	"syscall"
)

// openDir opens the directory at path without waiting: an entry swapped
// for a FIFO since it was listed does not block the walk.
func openDir(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY, 0)
}
