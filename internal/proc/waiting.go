package proc

import "os"

// BlockedOnInput reports whether a process of the group is asleep
// reading the input that its descriptors name link ("pipe:[INODE]", or a
// terminal's "/dev/pts/N"). Where the kernel does not tell, it is false.
func (g *Group) BlockedOnInput(link string) bool { return blockedOnInput(g.pid, link) }

// HiddenSleeper reports whether a process of the group is asleep where
// what it waits for cannot be read: sudo, a set-user-ID program, run by a
// server that is not root. Take it as waiting for input only while the
// job's terminal is set to read a secret (SecretMode).
func (g *Group) HiddenSleeper() bool { return hiddenSleeper(g.pid) }

// Unread counts the bytes waiting to be read from the pipe or terminal
// f; 0 when f is closed, or where it cannot be asked.
func Unread(f *os.File) int {
	c, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	c.Control(func(fd uintptr) { n = bytesUnread(fd) })
	return n
}
