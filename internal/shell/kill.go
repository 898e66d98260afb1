package shell

import (
	"syscall"
	"time"
)

// killGrace is how long processes get to end after SIGTERM before SIGKILL
// (docs/tools.md), and then how long SIGKILL gets before the pipes are cut off.
const killGrace = 2 * time.Second

// closeGrace replaces killGrace once the session is closing: a server told
// to stop (SIGTERM, stdin closed) must be gone, its jobs with it, within
// two seconds whatever a job does with SIGTERM.
const closeGrace = 800 * time.Millisecond

// A stopOutcome says how stop ended a job.
type stopOutcome int

const (
	// stopNotNeeded: the job had already finished.
	stopNotNeeded stopOutcome = iota
	// stopTerm: everything ended after SIGTERM.
	stopTerm
	// stopKill: SIGKILL was needed.
	stopKill
	// stopCutOff: something survived SIGKILL, or holds the pipes out of
	// reach; the pipes were closed on our side and it is left behind.
	stopCutOff
)

// stop ends every process of the job: SIGTERM to its process group and to
// the processes outside the group that hold its pipes (children that
// called setsid), SIGKILL to the same after killGrace, and it waits for
// the shell to be reaped and the pipes to be drained. What the job wrote
// before it ended stays in its pipelines for the final result.
func (j *job) stop() stopOutcome {
	j.stopMu.Lock()
	defer j.stopMu.Unlock()
	if !j.running() {
		return stopNotNeeded
	}
	j.procs.Signal(syscall.SIGTERM)
	if j.waitGone(killGrace) {
		return stopTerm
	}
	if j.isGone() {
		// Only processes that closed the pipes after SIGTERM are left;
		// the job's group is gone and its id may be another's by now.
		j.procs.SignalSurvivors(syscall.SIGKILL)
	} else {
		j.procs.Signal(syscall.SIGKILL)
	}
	if j.waitGone(killGrace) {
		return stopKill
	}
	// A process in uninterruptible sleep, or one that got a pipe by other
	// means than inheritance: stop reading so that nothing waits on it.
	j.cutOff()
	<-j.readersDone
	return stopCutOff
}

// waitGone polls until nothing of the job is left, for at most d, or
// closeGrace once the session is closing. The polls start quick and slow
// down to 50 ms: a look at a group with members reads /proc. A process
// that stop signalled outside the group is followed through the pipes it
// holds until they are at end of file, and then until it has ended
// itself: the kernel closes a dying process's pipes a moment before it
// is a zombie, and a process may close them on SIGTERM and run on.
func (j *job) waitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	hurried := false
	pause := time.Millisecond
	for {
		if !j.running() && len(j.procs.Survivors()) == 0 {
			return true
		}
		if !hurried && j.closing() {
			hurried = true
			deadline = minTime(deadline, time.Now().Add(closeGrace))
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// cutOff makes the readers stop at once, whoever still holds the pipes.
func (j *job) cutOff() {
	for _, s := range j.streams() {
		s.stop.stop()
	}
}

// closing reports whether the job's session is closing.
func (j *job) closing() bool {
	select {
	case <-j.hurry:
		return true
	default:
		return false
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// endForClose stops the job as its session closes, asking the kernel rather than
// /proc whether it has ended: SIGTERM to its process group, SIGKILL after
// closeGrace, each followed by a wait for the shell's exit, the pipes' end
// of file and the last process of the group. Thousands of sessions ending
// at once (a drain, a fleet of DELETEs) then cost no walk of every process
// on the machine each. A job that this does not end — a process outside
// the group holds its pipes, or a zombie of the group waits for its
// parent — is left to stop, which looks for those in /proc.
func (j *job) endForClose() {
	if j.endQuickly() {
		return
	}
	j.stop()
}

// endQuickly is the part of endForClose that needs no walk; it reports
// whether the job is gone.
func (j *job) endQuickly() bool {
	j.stopMu.Lock()
	defer j.stopMu.Unlock()
	if j.isGone() {
		return true
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		if !j.procs.Gone() {
			j.procs.SignalGroup(sig)
		}
		if cg := j.procs.Cgroup(); cg != nil && sig == syscall.SIGKILL {
			cg.Kill() // and what left the group: the session ends
		}
		if j.waitEnded(closeGrace) {
			return !j.running() // the group is empty: no walk
		}
	}
	return false
}

// waitEnded waits up to d for the shell's exit, the end of file of every
// pipe and an empty process group, and reports whether all three came.
func (j *job) waitEnded(d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for _, c := range []<-chan struct{}{j.exited, j.readersDone} {
		select {
		case <-c:
		case <-timer.C:
			return false
		}
	}
	pause := time.Millisecond
	for !j.procs.Gone() {
		select {
		case <-time.After(pause):
		case <-timer.C:
			return false
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
	return true
}
