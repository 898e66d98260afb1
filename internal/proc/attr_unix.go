//go:build unix && !linux

package proc

import "syscall"

// Attr starts a command in a session of its own, with no controlling
// terminal (see the Linux Attr for why), which also makes it the
// leader of a new process group. There is no parent-death signal outside
// Linux.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
