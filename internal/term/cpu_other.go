//go:build !linux

package term

import "time"

// cpuOf returns the time f took: elsewhere no thread clock is read, and
// the time that passed stands for its cost (it errs high on a busy
// machine).
func cpuOf(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
