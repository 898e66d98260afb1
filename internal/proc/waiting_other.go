//go:build !linux && !darwin

package proc

// blockedOnInput: elsewhere spillway cannot see what a process waits
// for, so a job is never said to wait for input; write_stdin and
// check_pid still work.
func blockedOnInput(pgid int, link string) bool { return false }

// fionread is the ioctl that counts the bytes waiting to be read:
// FIONREAD, _IOR('f', 127, int) on the BSDs and macOS, which x/sys/unix
// does not name there.
const fionread = 0x4004667f
