//go:build unix

package mcpserver

import "syscall"

// defaultConnCap derives the connection cap from the process's
// descriptor limit.
func defaultConnCap() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return connCapFor(1024)
	}
	return connCapFor(uint64(rl.Cur))
}
