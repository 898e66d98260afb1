//go:build unix && !linux

package shell

import "syscall"

// procAttr starts a command in a session of its own, with no controlling
// terminal (see the Linux procAttr for why), which also makes it the
// leader of a new process group. There is no parent-death signal outside
// Linux.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
