package proc

import "syscall"

// Attr starts a command in a session of its own, with no controlling
// terminal: nothing it runs can open /dev/tty and read the keys typed
// into the terminal that started spillway, or push characters into it
// (TIOCSTI), which that terminal's shell would then run outside every
// confinement. The session leader also leads a new process group, whose
// id is the command's pid, as stop and kill expect. The command is
// killed if spillway dies, so that a crashed server leaves no shell
// behind.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
