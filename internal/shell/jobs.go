package shell

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spillway-dev/spillway/tool"
)

// maxJobs is the most background jobs a session keeps (docs/tools.md).
const maxJobs = 64

// The job table of a Runner: r.jobs holds the background jobs, oldest
// first; r.calls the commands that calls are still waiting on. Both are
// guarded by r.mu. Lock order: r.mu, then a job's mu.

// addJob makes j a background job. When the table is full it forgets the
// oldest finished job; when every job in it still runs, j cannot be kept
// and the error says what to do.
func (r *Runner) addJob(j *job) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return tool.ErrClosed
	}
	if err := r.makeRoomLocked(); err != nil {
		return err
	}
	delete(r.calls, j)
	r.jobs = append(r.jobs, j)
	return nil
}

// makeRoomLocked forgets the oldest finished job if the table is full.
func (r *Runner) makeRoomLocked() error {
	if len(r.jobs) < maxJobs {
		return nil
	}
	for i, old := range r.jobs {
		if !old.running() {
			r.jobs = slices.Delete(r.jobs, i, i+1)
			return nil
		}
	}
	return fmt.Errorf("%d background jobs are running, the most a session keeps: stop one with kill_pid (running: %s)",
		maxJobs, r.pidsLocked())
}

// roomForJob reports whether a new background job could be kept now.
func (r *Runner) roomForJob() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.makeRoomLocked()
}

// findJob returns the background job with the given pid (the newest, if
// the pid was reused), or an error that lists the known pids.
func (r *Runner) findJob(pid int) (*job, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, tool.ErrClosed
	}
	for i := len(r.jobs) - 1; i >= 0; i-- {
		if r.jobs[i].pid == pid {
			return r.jobs[i], nil
		}
	}
	if len(r.jobs) == 0 {
		return nil, fmt.Errorf("no background job has pid %d: this session has none (a command gets a pid when it times out, runs in the background or leaves children running)", pid)
	}
	return nil, fmt.Errorf("no background job has pid %d; known pids: %s", pid, r.pidsLocked())
}

// pidsLocked lists the jobs' pids, oldest first.
func (r *Runner) pidsLocked() string {
	s := make([]string, len(r.jobs))
	for i, j := range r.jobs {
		s[i] = strconv.Itoa(j.pid)
	}
	return strings.Join(s, ", ")
}

// forgetCall drops a command that ended within its call.
func (r *Runner) forgetCall(j *job) {
	r.mu.Lock()
	delete(r.calls, j)
	r.mu.Unlock()
}
