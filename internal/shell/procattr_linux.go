package shell

import "syscall"

// procAttr puts a command in its own process group, and kills it if
// spillway dies so that a crashed server leaves no shell behind.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
