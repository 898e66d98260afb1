package spill

import (
	"os"
	"syscall"
)

// processExists reports whether a process with this pid runs: Windows
// lets a process be opened for its exit code only while it exists or is
// still referenced.
func processExists(pid int) bool {
	const stillActive = 259
	h, err := syscall.OpenProcess(syscall.PROCESS_QUERY_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer syscall.CloseHandle(h)
	var code uint32
	return syscall.GetExitCodeProcess(h, &code) == nil && code == stillActive
}

// ownerUID has no meaning on Windows, where the temp directory is the
// user's own.
func ownerUID(os.FileInfo) (int, bool) { return 0, false }

// ownedByMe is true on Windows: every directory in the user's temp
// directory is the user's.
func ownedByMe(os.FileInfo) bool { return true }
