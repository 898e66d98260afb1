//go:build !spillway_portable

package sandbox

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// DenyTerminalInjectionAsRoot installs the terminal filter (TIOCSTI and
// TIOCLINUX fail with EPERM) on this whole
// process, and so on every command it will start, sandboxed or not, when
// it runs as root. Root's commands need it: they start without a
// controlling terminal, but root may open any terminal (the one that
// started the server, through /proc/$PPID/fd/0) and the kernel lets a
// process with CAP_SYS_ADMIN push input into a terminal that is not its
// own. Another user's commands cannot: the kernel refuses them any
// terminal but their controlling one, which they do not have.
//
// As root, with CAP_SYS_ADMIN, the filter needs no no_new_privs, which is
// left alone (set-uid programs and file capabilities keep working). A
// root without CAP_SYS_ADMIN (a container's) cannot install it, nor push
// input into another terminal: that is no failure. It returns whether the
// filter is in place.
func DenyTerminalInjectionAsRoot() (bool, error) {
	if os.Geteuid() != 0 {
		return false, nil
	}
	a := archSeccomp()
	if a == nil {
		return false, unix.ENOSYS
	}
	err := installFilterPrivileged(terminalFilter(a))
	if errors.Is(err, unix.EACCES) {
		return false, nil // no CAP_SYS_ADMIN: TIOCSTI on another terminal is refused anyway
	}
	return err == nil, err
}
