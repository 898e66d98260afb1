//go:build !race && !spillway_portable

package sandbox

// raceEnv: without the race detector, the helpers get no race options.
func raceEnv() []string { return nil }
