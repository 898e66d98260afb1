//go:build linux || darwin || freebsd

package proc

import (
	"os"

	"golang.org/x/sys/unix"
)

// SecretMode reports whether the terminal whose master is f reads a
// secret: echo off while the kernel still edits the line (ICANON). That
// is what getpass(3), readpassphrase(3), sudo, ssh, Python's getpass and
// bash's read -s set. A program that draws its own input (readline, a
// REPL, an editor) turns echo off too, but with ICANON off: it is not
// asking for a secret. On a pseudo-terminal the master reads the slave's
// settings.
func SecretMode(f *os.File) bool {
	c, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var t *unix.Termios
	// The terminal may be closed meanwhile: Control then runs nothing.
	c.Control(func(fd uintptr) { t, _ = unix.IoctlGetTermios(int(fd), ioctlGetTermios) })
	return t != nil && t.Lflag&unix.ECHO == 0 && t.Lflag&unix.ICANON != 0
}
