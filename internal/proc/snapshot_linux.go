//go:build linux

package proc

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Every question this package asks of /proc on Linux — does a group have
// a live member, who holds a pipe, who in a group sleeps — is answered by
// walking every process on the machine. One job asking is cheap; a server
// ending thousands of sessions at once is not: each job's end asked on its
// own, so N jobs cost N walks of a table that itself grows with N. A
// snapshot is one walk, shared: a caller that arrives while a walk is
// under way waits for the next one, which then serves every caller that
// arrived meanwhile. So N concurrent callers cost about two walks, and no
// caller is answered from a walk that began before it asked.

// A snapshot is one walk of /proc.
type snapshot struct {
	procs []snapProc // by pid
	// links maps the pipes and terminals processes hold open
	// ("pipe:[INODE]", "/dev/pts/N") to the descriptors that hold them;
	// nil when the walk did not read descriptors.
	links map[string][]fdRef
	// marks maps the Runner marks in live processes' environments
	// (runnerVar=VALUE) to those processes, this one left out; nil when
	// the walk did not read environments.
	marks map[string][]int
}

// A detail is what a walk reads beyond each process's stat.
type detail uint8

const (
	withFDs   detail = 1 << iota // the pipes and terminals each process holds
	withMarks                    // the Runner mark in each process's environment
)

type snapProc struct {
	pid int
	st  procStat
}

// An fdRef is one open descriptor: process pid's /proc/PID/fd/FD.
type fdRef struct {
	pid int
	fd  string
}

// scans coalesces walks: while one runs, the callers that arrive join
// next, which starts when the running walk ends.
var scans struct {
	mu   sync.Mutex
	busy bool
	next *scanRound
}

// A scanRound is one walk and the callers waiting for it.
type scanRound struct {
	read    detail // what some caller of the round needs read
	waiters int    // the callers waiting for it
	done    chan struct{}
	snap    *snapshot
}

// freshSnapshot returns a walk of /proc begun after the call that read
// at least the details asked for.
func freshSnapshot(read detail) *snapshot {
	scans.mu.Lock()
	if scans.busy {
		r := scans.next
		if r == nil {
			r = &scanRound{done: make(chan struct{})}
			scans.next = r
		}
		r.read |= read
		r.waiters++
		scans.mu.Unlock()
		<-r.done
		return r.snap
	}
	scans.busy = true
	scans.mu.Unlock()
	s := takeSnapshot(read)
	startQueued()
	return s
}

// startQueued starts the walk that callers joined while the last one ran,
// or marks the walker idle. The caller that ran the last walk returns at
// once; the queued walk runs on a goroutine of its own.
func startQueued() {
	scans.mu.Lock()
	r := scans.next
	scans.next = nil
	if r == nil {
		scans.busy = false
	}
	scans.mu.Unlock()
	if r == nil {
		return
	}
	go func() {
		r.snap = takeSnapshot(r.read)
		close(r.done)
		startQueued()
	}()
}

// walkStarted, when set (by tests), is called as each walk starts.
var walkStarted func()

// walks counts the walks of /proc taken, and those that read descriptors.
var walks struct{ all, fds atomic.Uint64 }

// Walks returns how many walks of /proc this process has taken, and how
// many of them read every process's descriptors (the costliest).
func Walks() (all, fds uint64) { return walks.all.Load(), walks.fds.Load() }

// takeSnapshot walks /proc once.
func takeSnapshot(read detail) *snapshot {
	if walkStarted != nil {
		walkStarted()
	}
	walks.all.Add(1)
	s := &snapshot{}
	if read&withFDs != 0 {
		walks.fds.Add(1)
		s.links = map[string][]fdRef{}
	}
	if read&withMarks != 0 {
		s.marks = map[string][]int{}
	}
	self := os.Getpid()
	eachProc(func(pid int) bool {
		st, ok := readStat(pid)
		if !ok {
			return true
		}
		s.procs = append(s.procs, snapProc{pid, st})
		if read&withFDs != 0 {
			s.readLinks(pid)
		}
		if read&withMarks != 0 && pid != self && st.live() {
			if m := marks.of(pid, st.start); m != "" {
				s.marks[m] = append(s.marks[m], pid)
			}
		}
		return true
	})
	slices.SortFunc(s.procs, func(a, b snapProc) int { return a.pid - b.pid })
	if read&withMarks != 0 {
		marks.keep(s.procs)
	}
	return s
}

// marks remembers the Runner mark of each process walked, by its pid and
// start time: the environment a process started with is read once, not at
// every walk (ending thousands of sessions walks thousands of processes
// many times). A process that execs keeps its pid and start time but may
// drop the mark; it is still one a session's command started, and ending
// it with that session is right. Only walks run it, one at a time.
var marks = markCache{m: map[int]markEntry{}}

type markCache struct{ m map[int]markEntry }

type markEntry struct {
	start uint64
	mark  string
}

// of returns the mark of pid, started at start, reading it when unknown.
func (c *markCache) of(pid int, start uint64) string {
	if e, ok := c.m[pid]; ok && e.start == start {
		return e.mark
	}
	m := envEntry(pid, runnerVar)
	c.m[pid] = markEntry{start, m}
	return m
}

// keep forgets the processes a walk did not see.
func (c *markCache) keep(procs []snapProc) {
	for pid := range c.m {
		if _, found := slices.BinarySearchFunc(procs, pid, func(p snapProc, pid int) int { return p.pid - pid }); !found {
			delete(c.m, pid)
		}
	}
}

// readLinks records the pipes and terminals pid holds open.
func (s *snapshot) readLinks(pid int) {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	f, err := os.Open(dir)
	if err != nil {
		return // gone, or not ours to look at
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, n := range names {
		link, err := os.Readlink(dir + "/" + n)
		if err != nil || !strings.HasPrefix(link, "pipe:[") && !strings.HasPrefix(link, "/dev/") {
			continue
		}
		s.links[link] = append(s.links[link], fdRef{pid, n})
	}
}

// members returns the processes of group pgid, zombies included, as the
// walk saw them.
func (s *snapshot) members(pgid int) []int {
	var pids []int
	for _, p := range s.procs {
		if p.st.pgrp == pgid {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

// groupLive reports whether the walk saw a member of pgid that is not a
// zombie.
//
//lint:ignore U1000 used where /proc names the holders of a pipe (holders_linux.go)
func (s *snapshot) groupLive(pgid int) bool {
	for _, p := range s.procs {
		if p.st.pgrp == pgid && p.st.live() {
			return true
		}
	}
	return false
}
