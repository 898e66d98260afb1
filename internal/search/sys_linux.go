//go:build linux && !spillway_portable

package search

import (
	"strings"
	"syscall"
	"unsafe"
)

// The system calls of a walk and of a file's scan (openat, fstat, read,
// getdents64, close) are made raw, without telling the Go scheduler,
// when the tree lies on local file systems (localTree): there they do not
// block for long (the page cache answers, or a disk read), and announcing
// each one cost more than the call. When a goroutine announces a system call, the runtime's monitor
// thread may hand its processor to another thread if the call has not
// returned by its next tick (20 µs), and keeps ticking every 20 µs
// while it does so; a grep makes five calls per file, so the monitor
// woke tens of thousands of times a second, and half of the context
// switches of a grep over Go's tree were its sleeps. A raw call keeps the
// processor for its duration, as a computation would. A FIFO swapped in
// for a listed file does not block it either: files are opened with
// O_NONBLOCK, and a short read ends a file. One whose first read fills the
// buffer is checked to be regular (fstat) before it is read on, so a
// device (making one takes privilege) gets that one read, and is refused.
// On a network or FUSE file system a call
// can block for as long as the server takes, and a raw call would then
// hold up every garbage collection of the process (which waits for it),
// so there the calls are announced as usual (raw false).

// atCWD is AT_FDCWD: openat relative to the working directory.
const atCWD = -100

func sysOpen(raw bool, path string, flags int) (int, error) {
	return sysOpenat(raw, atCWD, path, flags)
}

func sysOpenat(raw bool, at int, path string, flags int) (int, error) {
	if !raw {
		return syscall.Openat(at, path, flags, 0)
	}
	// The NUL-terminated copy the kernel reads is made on the stack for
	// the paths of a tree (a heap copy per file was a tenth of a grep's
	// allocations).
	var stack [256]byte
	var p *byte
	if len(path) < len(stack) && strings.IndexByte(path, 0) < 0 {
		copy(stack[:], path)
		p = &stack[0]
	} else {
		var err error
		if p, err = syscall.BytePtrFromString(path); err != nil {
			return -1, err
		}
	}
	fd, _, errno := syscall.RawSyscall6(syscall.SYS_OPENAT, uintptr(at), uintptr(unsafe.Pointer(p)), uintptr(flags), 0, 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

func sysRead(raw bool, fd int, b []byte) (int, error) {
	if !raw {
		return syscall.Read(fd, b)
	}
	var p unsafe.Pointer
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(p), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

func sysGetdents(raw bool, fd int, b []byte) (int, error) {
	if !raw {
		return syscall.ReadDirent(fd, b)
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_GETDENTS64, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

func sysClose(raw bool, fd int) error {
	if !raw {
		return syscall.Close(fd)
	}
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
