//go:build unix

package search

import "syscall"

// asNobody runs a command as the user nobody.
func asNobody() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
}
