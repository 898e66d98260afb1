//go:build unix && (!linux || spillway_portable)

package proc

import (
	"errors"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// This file tracks a job without asking the kernel who holds a pipe,
// which only Linux's /proc answers. What is known everywhere is the
// process table — each process's pid, parent and process group — and the
// pipes themselves:
//
//   - The job's process group is live while it has a member that is not a
//     zombie (kill(-pgid, 0) also succeeds for a group of zombies).
//   - Its family is every process seen descending from the shell, or in
//     its group, while its parent was known: a child that called setsid
//     and left the group is still found through its parent, if the table
//     was read while that parent lived. The table is read from the job's
//     start on, quickly at first and then less often, and at every look
//     at the job. Members are remembered with their start time, so a pid
//     reused by another process is never taken for one.
//   - Once the shell has exited, a pipe that is not at end of file has a
//     writer: some process still holds it, found in the family or not.
//
// A process that leaves the group and is orphaned before any read of the
// table sees it (a `setsid` child whose shell exits at once) has nothing
// left in the table that ties it to the job. For those, each job's
// environment carries a mark (SPILLWAY_JOB=<server pid>-<n>) that its
// processes inherit: while the shell has exited and a pipe is still open,
// the processes whose environment holds the mark are the job's too. A
// process that clears its environment (env -i) and escapes both the group
// and the table's view is found by no one; the job is still reported as
// running while it holds the output, and kill_pid, after signalling
// everything it found, stops reading the pipes so that nothing waits on it.

// A procEntry is one row of the process table.
type procEntry struct {
	pid, ppid, pgid int
	live            bool   // neither a zombie nor dead
	start           uint64 // when it started, in the table's own unit
}

// groupLive reports whether process group pgid has a member that is not a
// zombie.
func groupLive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	if errors.Is(err, syscall.ESRCH) {
		return false
	}
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	tab, err := readTable()
	if err != nil {
		return true // the kernel says it has members; they may be zombies
	}
	for _, e := range tab {
		if e.pgid == pgid && e.live {
			return true
		}
	}
	return false
}

// markVar is the environment variable that marks a job's processes.
const markVar = "SPILLWAY_JOB"

var markSeq atomic.Uint64

// MarkEnv adds the job's mark to its environment.
func (g *Group) MarkEnv(env []string) []string {
	g.mark = markVar + "=" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(markSeq.Add(1), 10)
	return append(env, g.mark)
}

// marked returns the live processes of tab, other than self and the
// members of f, whose environment holds mark.
func (f *family) marked(tab []procEntry, mark string, self int) []procEntry {
	f.mu.Lock()
	defer f.mu.Unlock()
	var found []procEntry
	for _, e := range tab {
		if _, ok := f.members[e.pid]; ok || !e.live || e.pid == self {
			continue
		}
		if hasEnv(e.pid, mark) {
			found = append(found, e)
		}
	}
	return found
}

// adopt makes the processes members of the family.
func (f *family) adopt(es []procEntry) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range es {
		f.members[e.pid] = e.start
	}
}

// A family is the set of processes seen descending from a job's shell or
// in its process group.
type family struct {
	mu      sync.Mutex
	members map[int]uint64 // pid → start time
}

// observe updates the family from a reading of the process table: it
// forgets members that are gone (or whose pid now names another process)
// and adds every live process whose parent is a member or that is in the
// group pgid (whose leader is the shell). self, this process, is never a
// member.
func (f *family) observe(tab []procEntry, pgid, self int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.members == nil {
		f.members = make(map[int]uint64)
	}
	byPid := make(map[int]procEntry, len(tab))
	for _, e := range tab {
		byPid[e.pid] = e
	}
	for pid, start := range f.members {
		if e, ok := byPid[pid]; !ok || e.start != start || !e.live {
			delete(f.members, pid)
		}
	}
	// The table may list a child before its parent: repeat until no
	// process joins.
	for grew := true; grew; {
		grew = false
		for _, e := range tab {
			if !e.live || e.pid == self {
				continue
			}
			if _, ok := f.members[e.pid]; ok {
				continue
			}
			_, parentIn := f.members[e.ppid]
			if e.pid == pgid || e.pgid == pgid || parentIn {
				f.members[e.pid] = e.start
				grew = true
			}
		}
	}
}

// outside returns the live members that are not in the group pgid: those
// the group's signal does not reach.
func (f *family) outside(tab []procEntry, pgid int) []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var pids []int
	for _, e := range tab {
		if start, ok := f.members[e.pid]; ok && start == e.start && e.live && e.pgid != pgid {
			pids = append(pids, e.pid)
		}
	}
	return pids
}

// readFamily reads the table and updates the family.
func (g *Group) readFamily() ([]procEntry, bool) {
	tab, err := readTable()
	if err != nil {
		return nil, false
	}
	self := os.Getpid()
	g.family.observe(tab, g.pid, self)
	if g.mark != "" && isClosed(g.exited) && !isClosed(g.drained) {
		// The shell is gone and someone holds a pipe: look for the
		// processes that carry the job's mark.
		g.family.adopt(g.family.marked(tab, g.mark, self))
	}
	return tab, true
}

// pipeHolders returns the live processes of the job's family that are
// outside its process group (children that called setsid): besides the
// group, the processes that may hold its pipes.
func (g *Group) pipeHolders() []int {
	tab, ok := g.readFamily()
	if !ok {
		return nil
	}
	return g.family.outside(tab, g.pid)
}

// HoldersLeft reports whether a live process may still write to the
// pipes: a member of the process group, a member of the family outside
// it, or — once the shell has exited — a pipe not at end of file.
func (g *Group) HoldersLeft() bool {
	if groupLive(g.pid) || len(g.pipeHolders()) > 0 {
		return true
	}
	return isClosed(g.exited) && !isClosed(g.drained)
}

// ShellExited reads the table as soon as the shell has exited: a child
// orphaned by that exit is still in the group until it calls setsid.
func (g *Group) ShellExited() { g.readFamily() }

// How often watchFamily reads the process table: quickly while the job is
// young, when its children are forked, then less often.
const (
	watchFirst = 2 * time.Millisecond
	watchMost  = 500 * time.Millisecond
)

// watchFamily reads the process table from the job's start until its
// shell has exited and its pipes are closed, so that children are seen
// while their parents live.
func (g *Group) watchFamily() {
	go func() {
		pause := watchFirst
		t := time.NewTimer(0)
		defer t.Stop()
		for {
			select {
			case <-t.C:
			case <-g.drained:
				if isClosed(g.exited) {
					return
				}
				<-t.C
			}
			g.readFamily()
			if isClosed(g.exited) && isClosed(g.drained) {
				return
			}
			t.Reset(pause)
			pause = min(2*pause, watchMost)
		}
	}()
}
