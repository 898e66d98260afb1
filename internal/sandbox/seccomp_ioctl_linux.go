//go:build !spillway_portable

package sandbox

import "golang.org/x/sys/unix"

// The terminal filter, installed under every sandbox: it denies the two
// ioctls that let a process act on a terminal as if it were the person at
// the keyboard. TIOCSTI pushes characters into a terminal's input, where
// the shell that reads them runs them outside the sandbox; TIOCLINUX
// (on a virtual console) can paste the selection into it, as the same
// thing. A command starts with no controlling terminal, so TIOCSTI has
// nothing to reach anyway; the filter holds even where that fails (a
// process that gains a terminal, a kernel where legacy TIOCSTI is on).
// Both are denied with EPERM, as a kernel without legacy TIOCSTI does.

// The ioctl requests, the same on every Linux architecture spillway's
// filters know (asm-generic and x86 share them).
const (
	reqTIOCSTI   = 0x5412
	reqTIOCLINUX = 0x541C
	// x32 system call numbers have bit 30 set; its ioctl is 514.
	x32Bit   = 0x40000000
	x32Ioctl = 514
)

// terminalFilter builds the BPF program: for each ABI it knows, an ioctl
// whose request (an unsigned int: the low 32 bits of the argument) is
// TIOCSTI or TIOCLINUX fails with EPERM; everything else is allowed. An
// ABI it does not know is denied, as in the socket filter.
func terminalFilter(a *seccompArch) []unix.SockFilter {
	const (
		ld  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		ret = unix.BPF_RET | unix.BPF_K
	)
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
	}
	allow := stmt(ret, retAllow)
	deny := stmt(ret, retErrno(unix.EPERM))
	// checkRequest: the five instructions that end the program for an
	// ioctl: allow it unless the request is one of the two.
	checkRequest := []unix.SockFilter{
		stmt(ld, offArg1),
		jump(jeq, reqTIOCSTI, 2, 0),
		jump(jeq, reqTIOCLINUX, 1, 0),
		allow,
		deny,
	}
	n := uint8(len(checkRequest))

	var p []unix.SockFilter
	native := []uint32{a.ioctl}
	if a.x32 {
		native = append(native, x32Bit|x32Ioctl)
	}
	abis := []struct {
		audit  uint32
		ioctls []uint32
	}{{a.audit, native}}
	for _, c := range a.compats {
		abis = append(abis, struct {
			audit  uint32
			ioctls []uint32
		}{c.audit, []uint32{c.ioctl}})
	}
	for _, abi := range abis {
		k := uint8(len(abi.ioctls))
		// arch matches: load the number; not an ioctl: allow; an ioctl:
		// check its request. Otherwise skip to the next ABI.
		p = append(p, stmt(ld, offArch), jump(jeq, abi.audit, 0, 1+k+1+n), stmt(ld, offNr))
		for i, nr := range abi.ioctls {
			p = append(p, jump(jeq, nr, k-uint8(i), 0))
		}
		p = append(p, allow)
		p = append(p, checkRequest...)
	}
	return append(p, stmt(ret, retErrno(unix.ENOSYS)))
}

// denyTerminalInjection installs the terminal filter on every thread of
// this process; it is kept across exec.
func denyTerminalInjection() error {
	a := archSeccomp()
	if a == nil {
		return unix.ENOSYS
	}
	return installFilter(terminalFilter(a))
}
