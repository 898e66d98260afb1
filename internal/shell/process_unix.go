//go:build unix

package shell

import (
	"fmt"
	"os"
	"os/exec"
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

// bytesUnread counts the bytes waiting to be read from the pipe fd.
func bytesUnread(fd uintptr) int {
	n, _ := unix.IoctlGetInt(int(fd), fionread)
	return n
}

// signalGroup sends sig to the job's process group.
func (j *job) signalGroup(sig syscall.Signal) { syscall.Kill(-j.pid, sig) }

// ttyAttr makes the command the leader of a session of its own whose
// controlling terminal is its stdin (the slave side), as a terminal
// emulator does. A session leader also leads its process group, so the
// job's pid is still its group id and stop, kill and cancel reach it as
// any other job's. Ctrl-C written to the master goes, through the
// terminal's line discipline, to the terminal's foreground group.
func ttyAttr() *syscall.SysProcAttr {
	a := procAttr() // a session of its own
	a.Setctty = true
	a.Ctty = 0 // the child's fd 0: the terminal
	return a
}

// waitStatus reads a wait status, as wait(2) gives it.
func waitStatus(ws syscall.WaitStatus) exitStatus {
	if ws.Signaled() {
		return exitStatus{code: 128 + int(ws.Signal()), signal: signalName(ws.Signal())}
	}
	return exitStatus{code: ws.ExitStatus()}
}

// decodeStatus reads a wait status sent as a number.
func decodeStatus(u uint32) exitStatus { return waitStatus(syscall.WaitStatus(u)) }

// pollable returns f, a descriptor in blocking mode, as a file in Go's
// poller, and closes f. pty.Open leaves a terminal's master blocking (its
// ioctls go through Fd), and a blocking file takes no deadline: a write
// to a full terminal would wait forever, and stop could not cut off a
// reader that a process out of reach keeps going.
func pollable(f *os.File) (*os.File, error) {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	name := f.Name()
	f.Close()
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// lookShell finds the shell on PATH.
func lookShell(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("cannot run the shell %q: %w (set shell in the config)", name, err)
	}
	return path, nil
}
