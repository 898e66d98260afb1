//go:build !linux

package console

import (
	"errors"
	"net"
	"os"
	"syscall"
)

// checkPeer, where the peer's process cannot be looked up the Linux way,
// relies on the directory's permissions alone: only this user reaches
// the socket.
func checkPeer(net.Conn, string) error { return nil }

// alive reports whether a process pid exists.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, os.ErrPermission)
}

// ownedPrivate checks that fi has no access for others.
func ownedPrivate(fi os.FileInfo) error {
	if fi.Mode().Perm()&0o077 != 0 {
		return errors.New("others may enter it: chmod 700 it")
	}
	return nil
}
