//go:build unix

package rules

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) this process has used.
func processCPU() time.Duration {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
