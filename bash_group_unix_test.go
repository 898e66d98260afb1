//go:build unix

package spillway_test

import (
	"errors"
	"syscall"
	"time"
)

// bashGroupGone polls kill(-pgid, 0) until it fails, for at most limit,
// and returns how long that took. Killed members stay in the group as
// zombies until their parent (PID 1 for orphans) reaps them.
func bashGroupGone(pgid int, limit time.Duration) (time.Duration, bool) {
	start := time.Now()
	for {
		if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
			return time.Since(start), true
		}
		if time.Since(start) > limit {
			return time.Since(start), false
		}
		time.Sleep(5 * time.Millisecond)
	}
}
