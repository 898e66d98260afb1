//go:build darwin || freebsd

package shell

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TIOCGETA
