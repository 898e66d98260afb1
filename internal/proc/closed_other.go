//go:build !linux || spillway_portable

package proc

// isClosed reports whether c is closed: the portable paths tell a job's
// state from its channels, where Linux reads /proc.
func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
