//go:build unix && (!linux || spillway_portable)

package search

import "syscall"

// Elsewhere the system calls of a scan go through package syscall.

func sysOpen(_ bool, path string, flags int) (int, error) { return syscall.Open(path, flags, 0) }

func sysRead(_ bool, fd int, b []byte) (int, error) { return syscall.Read(fd, b) }

func sysFstat(_ bool, fd int, st *syscall.Stat_t) error { return syscall.Fstat(fd, st) }

func sysClose(_ bool, fd int) error { return syscall.Close(fd) }
