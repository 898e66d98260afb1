//go:build linux && (amd64 || arm64) && !spillway_portable

package search

import (
	"syscall"
	"unsafe"
)

// sysFstat is a raw fstat (see sys_linux.go), where the system call's
// number and struct stat are those of syscall.Stat_t.
func sysFstat(raw bool, fd int, st *syscall.Stat_t) error {
	if !raw {
		return syscall.Fstat(fd, st)
	}
	_, _, errno := syscall.RawSyscall(syscall.SYS_FSTAT, uintptr(fd), uintptr(unsafe.Pointer(st)), 0)
	if errno != 0 {
		return errno
	}
	return nil
}
