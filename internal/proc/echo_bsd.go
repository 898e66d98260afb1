//go:build darwin || freebsd

package proc

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TIOCGETA
