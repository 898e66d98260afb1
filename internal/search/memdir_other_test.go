//go:build !linux

package search

import "testing"

// memDir returns a temporary directory (Linux puts it in /dev/shm).
func memDir(t *testing.T, size int64) string { return t.TempDir() }
