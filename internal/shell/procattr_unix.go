//go:build unix && !linux

package shell

import "syscall"

// procAttr puts a command in its own process group. There is no
// parent-death signal outside Linux.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
