//go:build unix && !linux && !darwin

package proc

// hasEnv cannot read another process's environment here: marked
// processes are not searched for.
func hasEnv(int, string) bool { return false }
