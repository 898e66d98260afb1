//go:build !linux || spillway_portable

package sandbox

// DenyTerminalInjectionAsRoot does nothing here: the filter is seccomp's,
// which only Linux has.
func DenyTerminalInjectionAsRoot() (bool, error) { return false, nil }
