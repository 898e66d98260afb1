package shell

import "syscall"

// decodeStatus reads an exit code sent as a number.
func decodeStatus(u uint32) exitStatus { return exitStatus{code: int(u)} }

// waitStatus reads a Windows exit status.
func waitStatus(ws syscall.WaitStatus) exitStatus { return exitStatus{code: ws.ExitStatus()} }
