//go:build unix

package shell

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// signal sends sig to the process group and to every process that holds
// one of the job's pipes, and to the group such a process leads.
func (j *job) signal(sig syscall.Signal) {
	syscall.Kill(-j.pid, sig)
	for _, pid := range j.pipeHolders() {
		syscall.Kill(pid, sig)
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid && pid != j.pid {
			syscall.Kill(-pid, sig)
		}
	}
}

// signalName names a signal the way people write it: SIGTERM, SIGKILL.
func signalName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", int(s))
}

// inode returns the inode number of the file fi describes.
func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
