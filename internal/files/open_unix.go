//go:build unix

package files

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without blocking: a FIFO that
// appeared between the stat and the open does not wait for a writer.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
