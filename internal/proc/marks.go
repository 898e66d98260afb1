package proc

import (
	"sync"
	"time"
)

// live are the marks of this process's sessions that are still open.
var live sync.Map

// NewMark makes the mark of a session ("NAME=VALUE", or "" where none is
// used) that every command of the session carries in its environment,
// and lists it with the watcher, which kills the processes that carry it
// should the server die.
func NewMark() string {
	mark := newMark()
	watchMark(mark)
	if mark != "" {
		live.Store(mark, true)
	}
	return mark
}

// IsLiveMark reports whether kv ("NAME=VALUE", as an environment holds
// it) is the mark of one of this process's open sessions.
func IsLiveMark(kv string) bool {
	_, ok := live.Load(kv)
	return ok
}

// EndOrphans ends every live process other than this one that carries
// the session's mark, waiting up to grace after SIGTERM before SIGKILL,
// and takes the mark off the watcher's list. Call it once the session's
// own jobs are stopped.
func EndOrphans(mark string, grace time.Duration) {
	endOrphans(mark, grace)
	unwatchMark(mark)
	live.Delete(mark)
}

// ForgetMark takes the session's mark off the watcher's list without
// looking for what carries it: the session's cgroup held every process
// that could.
func ForgetMark(mark string) {
	unwatchMark(mark)
	live.Delete(mark)
}
