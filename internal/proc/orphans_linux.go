//go:build linux

package proc

import (
	"crypto/rand"
	"syscall"
	"time"
)

// Processes a job leaves behind without the sandbox's PID namespace: a
// daemon that double-forks, calls setsid and closes its descriptors has
// left the job's process group and pipes, so stopping the job cannot find
// it. Every command's environment carries its Runner's mark; when the
// session ends, every process that still has the mark is ended (SIGTERM,
// SIGKILL after a grace).
//
// The server is not a child subreaper (PR_SET_CHILD_SUBREAPER): it would
// then have to reap every orphan, and it cannot wait for "any child"
// without taking the exit status of a command from os/exec, which waits
// for its own by pid; orphans that it could not tell apart would pile up
// as zombies. They are reparented to init, which reaps them.
//
// A process that clears its environment is out of reach: only the
// sandbox's PID namespace holds those. When the server is killed with
// SIGKILL, the watcher (deathwatch.go) ends the marked processes.

// runnerVar is the environment variable that carries a Runner's mark.
const runnerVar = "SPILLWAY_SESSION_MARK"

// newMark makes a Runner's mark.
func newMark() string { return runnerVar + "=" + rand.Text() }

// endOrphans ends every live process other than this one that carries
// mark, waiting up to grace after SIGTERM before SIGKILL. Call it once
// the Runner's own jobs are stopped.
func endOrphans(mark string, grace time.Duration) {
	orphans := marked(mark)
	if len(orphans) == 0 {
		return
	}
	for _, pid := range orphans {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(grace)
	for len(liveOf(orphans)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	for _, pid := range liveOf(orphans) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// killMarked sends SIGKILL to every live process other than this one that
// carries mark.
func killMarked(mark string) {
	for _, pid := range marked(mark) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// marked returns the live processes, other than this one, whose
// environment holds mark.
func marked(mark string) []int {
	return liveOf(freshSnapshot(withMarks).marks[mark])
}

func liveOf(pids []int) []int {
	var live []int
	for _, pid := range pids {
		if st, ok := readStat(pid); ok && st.live() {
			live = append(live, pid)
		}
	}
	return live
}
