//go:build unix

package proc

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Signal sends sig to the process group and to every process that holds
// one of the job's pipes, and to the group such a process leads.
func (g *Group) Signal(sig syscall.Signal) {
	syscall.Kill(-g.pid, sig)
	for _, pid := range g.pipeHolders() {
		syscall.Kill(pid, sig)
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid && pid != g.pid {
			syscall.Kill(-pid, sig)
		}
	}
}

// SignalGroup sends sig to the process group only, as a terminal's
// Ctrl-C does.
func (g *Group) SignalGroup(sig syscall.Signal) { syscall.Kill(-g.pid, sig) }

// Inode returns the inode number of the file fi describes: what names a
// pipe in the descriptors of the processes that hold it.
func Inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// bytesUnread counts the bytes waiting to be read from the pipe fd.
func bytesUnread(fd uintptr) int {
	n, _ := unix.IoctlGetInt(int(fd), fionread)
	return n
}

// TTYAttr makes the command the leader of a session of its own whose
// controlling terminal is its stdin (the slave side), as a terminal
// emulator does. A session leader also leads its process group, so the
// job's pid is still its group id and stop, kill and cancel reach it as
// any other job's. Ctrl-C written to the master goes, through the
// terminal's line discipline, to the terminal's foreground group.
func TTYAttr() *syscall.SysProcAttr {
	a := Attr() // a session of its own
	a.Setctty = true
	a.Ctty = 0 // the child's fd 0: the terminal
	return a
}

// Gone reports whether no process of the group is left, not even a
// zombie waiting for its parent: the kernel answers that without a walk of
// /proc. A group with only zombies left is not Live, yet not Gone either.
func (g *Group) Gone() bool {
	return errors.Is(syscall.Kill(-g.pid, 0), syscall.ESRCH) || g.cg != nil && !g.cg.Populated()
}
