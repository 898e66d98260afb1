//go:build unix

package search

import "syscall"

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// asNobody runs a command as the user nobody.
func asNobody() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
}
