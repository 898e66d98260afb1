package mcpserver

import (
	"crypto/rand"
	"fmt"
)

// validNodeID reports whether id is what a node id may hold, 1 to 63 of
// [A-Za-z0-9_-]: no dot, which ends it inside a session id, and nothing a
// header or a proxy's rule would need to escape.
func validNodeID(id string) bool {
	if id == "" || len(id) > 63 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// CheckNodeID says what is wrong with a node id, if anything.
func CheckNodeID(id string) error {
	if !validNodeID(id) {
		return fmt.Errorf("node id %q: want 1 to 63 letters, digits, '-' or '_' (e.g. the pod's name), no dot", id)
	}
	return nil
}

// sessionIDs returns the function that makes the id of each new session:
// "NODE.RANDOM" with a node id, so that any proxy can send a session's
// requests to the node that holds it by the Mcp-Session-Id header alone,
// with no table to learn or share (docs/operations.md); else RANDOM, as
// the SDK makes them. RANDOM carries 128 bits.
func sessionIDs(node string) func() string {
	if node == "" {
		return rand.Text
	}
	return func() string { return node + "." + rand.Text() }
}
