//go:build unix

package rules

import (
	"os"
	"syscall"
)

// openNoWait opens a file for reading without blocking: a FIFO that
// took a file's place after the Stat opens at once instead of waiting
// for a writer, and is then refused.
func openNoWait(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
