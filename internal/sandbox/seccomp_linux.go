//go:build !spillway_portable

package sandbox

import (
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp filter of the floor (no namespaces, NoNetwork): Landlock
// denies TCP, and this denies creating any other socket but a Unix one
// (UDP, raw, netlink, packet, …) and io_uring, whose socket operation
// would bypass the filter. Pathname Unix sockets stay open: seccomp cannot
// read the address a process connects to.

// seccompArch is what the filter knows of this architecture: its audit
// number, the socket syscall, and the other ABIs the kernel may accept
// from this process and the socket calls of each.
type seccompArch struct {
	audit   uint32
	socket  uint32
	uring   uint32
	ioctl   uint32
	x32     bool // amd64: syscall numbers with bit 30 set are the x32 ABI
	compats []seccompCompat
}

type seccompCompat struct {
	audit   uint32
	sockets []uint32 // socket and socketcall, which can make one
	ioctl   uint32
}

var seccompSupported = archSeccomp() != nil

func archSeccomp() *seccompArch {
	switch runtime.GOARCH {
	case "amd64":
		// i386: socketcall 102, socket 359, ioctl 54.
		return &seccompArch{audit: unix.AUDIT_ARCH_X86_64, socket: 41, uring: 425, ioctl: 16, x32: true,
			compats: []seccompCompat{{audit: unix.AUDIT_ARCH_I386, sockets: []uint32{102, 359}, ioctl: 54}}}
	case "arm64":
		// arm (EABI): socket 281, ioctl 54.
		return &seccompArch{audit: unix.AUDIT_ARCH_AARCH64, socket: 198, uring: 425, ioctl: 29,
			compats: []seccompCompat{{audit: unix.AUDIT_ARCH_ARM, sockets: []uint32{281}, ioctl: 54}}}
	}
	return nil
}

const (
	retAllow = unix.SECCOMP_RET_ALLOW
	// offsets in struct seccomp_data
	offNr   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on a little-endian machine
	offArg1 = 24
)

func retErrno(e syscall.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }

// socketFilter builds the BPF program.
func socketFilter(a *seccompArch) []unix.SockFilter {
	const (
		ld  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret = unix.BPF_RET | unix.BPF_K
	)
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
	}
	deny := stmt(ret, retErrno(unix.EAFNOSUPPORT))
	allow := stmt(ret, retAllow)

	var p []unix.SockFilter
	// Other ABIs first: deny their socket calls, allow the rest.
	for _, c := range a.compats {
		n := uint8(len(c.sockets))
		p = append(p, stmt(ld, offArch), jump(jeq, c.audit, 0, n+3), stmt(ld, offNr))
		for i, s := range c.sockets {
			p = append(p, jump(jeq, s, n-uint8(i), 0))
		}
		p = append(p, allow, deny)
	}
	// Any ABI the filter does not know: deny.
	p = append(p, stmt(ld, offArch), jump(jeq, a.audit, 1, 0), stmt(ret, retErrno(unix.ENOSYS)))
	p = append(p, stmt(ld, offNr))
	if a.x32 {
		p = append(p, jump(jge, 0x40000000, 0, 1), stmt(ret, retErrno(unix.ENOSYS)))
	}
	p = append(p,
		jump(jeq, a.uring, 0, 1), stmt(ret, retErrno(unix.ENOSYS)),
		jump(jeq, a.socket, 1, 0), allow,
		stmt(ld, offArg0),
		jump(jeq, unix.AF_UNIX, 0, 1), allow,
		deny,
	)
	return p
}

// denySockets installs the socket filter on every thread of this process;
// it is kept across exec. Landlock has already set no_new_privs.
func denySockets() error {
	a := archSeccomp()
	if a == nil {
		return unix.ENOSYS
	}
	return installFilter(socketFilter(a))
}

// installFilter installs a seccomp filter on every thread of this
// process, with no_new_privs set first (which a process without
// CAP_SYS_ADMIN needs).
func installFilter(filter []unix.SockFilter) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	return installFilterPrivileged(filter)
}

// installFilterPrivileged installs a seccomp filter on every thread of
// this process without setting no_new_privs: the kernel allows it only
// with CAP_SYS_ADMIN.
func installFilterPrivileged(filter []unix.SockFilter) error {
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	if errno != 0 {
		return errno
	}
	return nil
}
