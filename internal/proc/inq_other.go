//go:build !linux && !darwin && !freebsd

package proc

import "os"

// PendingInput: elsewhere a terminal's input queue is not read.
func PendingInput(master *os.File, link string) (n int, ok bool) { return 0, false }
