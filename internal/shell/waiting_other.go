//go:build !linux && !darwin

package shell

import "golang.org/x/sys/unix"

// blockedOnInput: elsewhere spillway cannot see what a process waits
// for, so a job is never said to wait for input; write_stdin and
// check_pid still work.
func blockedOnInput(pgid int, link string) bool { return false }

// fionread is the ioctl that counts the bytes waiting to be read.
const fionread = unix.FIONREAD
