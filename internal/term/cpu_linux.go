package term

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// cpuOf returns the processor time f took on its thread: what it cost,
// whatever else the machine was doing. The goroutine stays on its thread
// while f runs, so the thread's clock counts f alone.
func cpuOf(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var a, b unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &a) != nil {
		start := time.Now()
		f()
		return time.Since(start)
	}
	f()
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &b) != nil {
		return 0
	}
	return time.Duration(b.Nano() - a.Nano())
}
