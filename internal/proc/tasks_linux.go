package proc

import (
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// A job's tasks are capped with RLIMIT_NPROC, set on its first process
// (and, under the sandbox, by the helper itself before anything of the
// command runs, see internal/sandbox). The kernel counts that limit per
// real user: without a user namespace, against all of the user's tasks,
// the server's threads included; in the sandbox's user namespaces,
// against the job's own tasks, and the user's total above them.
//
// So the cap a job gets is the policy's bash.max_processes, but never
// more than the user's own limit less taskReserve: a job that forks
// until fork fails leaves the server room to start threads (the Go
// runtime dies, taking every session, when it cannot) and to serve the
// tools that start no process. Root's tasks are not counted at all.

// taskReserve is how many of the user's tasks jobs leave to the server
// and to the user's other programs.
const taskReserve = 64

// TaskLimit returns the RLIMIT_NPROC a job gets under a cap of most tasks
// (0: none): 0 when there is nothing to set.
func TaskLimit(most int) uint64 {
	var own unix.Rlimit
	limit := uint64(0)
	if most > 0 {
		limit = uint64(most)
	}
	if unix.Getrlimit(unix.RLIMIT_NPROC, &own) == nil && own.Cur != unix.RLIM_INFINITY {
		room := own.Cur / 2
		if own.Cur > 2*taskReserve {
			room = own.Cur - taskReserve
		}
		if limit == 0 || room < limit {
			limit = max(room, 1)
		}
	}
	return limit
}

// LimitTasks caps the tasks of the group's shell and of everything it
// starts from now on at TaskLimit(most) (soft and hard: the job cannot
// raise it again). Call it at once after Start, before the shell has had
// time to fork.
func (g *Group) LimitTasks(most int) {
	limit := TaskLimit(most)
	if limit == 0 {
		return
	}
	unix.Prlimit(g.pid, unix.RLIMIT_NPROC, &unix.Rlimit{Cur: limit, Max: limit}, nil)
}

// spareThreads makes the Go runtime start n threads at once and keep
// them idle (it never ends an idle thread), so that a server whose user
// has run out of tasks still has threads for blocking system calls
// instead of failing to make one, which is fatal.
var spareThreads = sync.OnceFunc(func() {
	const n = 32
	var ready, release sync.WaitGroup
	release.Add(1)
	for range n {
		ready.Add(1)
		go func() {
			// A locked goroutine that waits keeps its thread: the others
			// need new ones. Unlocked before it ends, the thread stays.
			runtime.LockOSThread()
			ready.Done()
			release.Wait()
			runtime.UnlockOSThread()
		}()
	}
	ready.Wait()
	release.Done()
})
