//go:build unix

package shell

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// signalName names a signal the way people write it: SIGTERM, SIGKILL.
func signalName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", int(s))
}

// waitStatus reads a wait status, as wait(2) gives it.
func waitStatus(ws syscall.WaitStatus) exitStatus {
	if ws.Signaled() {
		return exitStatus{code: 128 + int(ws.Signal()), signal: signalName(ws.Signal())}
	}
	return exitStatus{code: ws.ExitStatus()}
}

// decodeStatus reads a wait status sent as a number.
func decodeStatus(u uint32) exitStatus { return waitStatus(syscall.WaitStatus(u)) }
