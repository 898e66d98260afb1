//go:build linux && !amd64 && !arm64 && !spillway_portable

package search

import "syscall"

func sysFstat(_ bool, fd int, st *syscall.Stat_t) error { return syscall.Fstat(fd, st) }
