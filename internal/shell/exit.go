package shell

import (
	"fmt"
	"os"
	"syscall"
)

// An exitStatus is how a shell ended: its exit code, or the signal that
// killed it (then code is 128+signal, as a shell reports it).
type exitStatus struct {
	code   int
	signal string // "SIGKILL", or "" when the shell exited by itself
}

// statusOf reads the exit status of a reaped process.
func statusOf(ps *os.ProcessState) exitStatus {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
		return waitStatus(ws)
	}
	return exitStatus{code: ps.ExitCode()}
}

// String is the status line of the text: "exit code: 0", or
// "exit code: 137 (killed by SIGKILL)".
func (s exitStatus) String() string {
	if s.signal != "" {
		return fmt.Sprintf("exit code: %d (killed by %s)", s.code, s.signal)
	}
	return fmt.Sprintf("exit code: %d", s.code)
}
