//go:build !linux || spillway_portable

package search

// Elsewhere a walk opens what it meets by path.

type walkRoot struct{}

func openWalkRoot(string) *walkRoot { return nil }

func closeWalkRoot(*walkRoot) {}

func openReadAt(_ *walkRoot, _, path string) (*rawFile, error) { return openRead(path) }
