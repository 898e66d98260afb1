//go:build !unix

package mcpserver

// defaultConnCap: without a descriptor limit to derive it from, the cap
// of a process that may hold 8192.
func defaultConnCap(maxSessions int) int { return connCapFor(DescriptorLimit(), maxSessions) }

// DescriptorLimit: no limit to read here; 8192 stands in for it.
func DescriptorLimit() uint64 { return 8192 }
