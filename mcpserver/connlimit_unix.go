//go:build unix

package mcpserver

import "syscall"

// defaultConnCap derives the connection cap from the process's
// descriptor limit and the sessions it may hold.
func defaultConnCap(maxSessions int) int {
	return connCapFor(DescriptorLimit(), maxSessions)
}

// DescriptorLimit is the process's descriptor limit (Go raises the soft
// limit to the hard one at start).
func DescriptorLimit() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 1024
	}
	return uint64(rl.Cur)
}
