//go:build !linux

package proc

import "time"

// newMark returns no mark: the process table of other systems follows a
// job's processes by its own mark (markEnv).
func newMark() string { return "" }

// endOrphans does nothing here.
func endOrphans(string, time.Duration) {}

// killMarked does nothing here.
func killMarked(string) {}
