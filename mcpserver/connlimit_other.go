//go:build !unix

package mcpserver

// defaultConnCap: without a descriptor limit to derive it from, the cap
// of a process that may hold 8192.
func defaultConnCap() int { return connCapFor(8192) }
