//go:build unix

package proc

import (
	"errors"
	"os"
	"slices"
	"syscall"

	"golang.org/x/sys/unix"
)

// Signal sends sig to the process group and to every process that holds
// one of the job's pipes or that an earlier Signal reached and still
// lives, and to the group such a process leads.
func (g *Group) Signal(sig syscall.Signal) {
	syscall.Kill(-g.pid, sig)
	g.signalOutside(g.pipeHolders(), sig)
}

// SignalSurvivors sends sig to the Survivors and to the groups they
// lead, but not to the job's own group: once that group is gone, its id
// may name another.
func (g *Group) SignalSurvivors(sig syscall.Signal) { g.signalOutside(nil, sig) }

// Survivors returns the processes Signal reached as holders of the job's
// pipes that have not ended (a zombie has), and the groups such a process
// led that still have a live member, by their ids. A child that left the
// group is followed through the pipes it holds, and their end of file
// comes before its end: a dying process closes its files a moment before
// it is a zombie, and one that closes them on SIGTERM may run on, or
// leave a child in its group that does. While the process table cannot
// be read, every one of them counts.
func (g *Group) Survivors() []int {
	g.reachMu.Lock()
	defer g.reachMu.Unlock()
	var left []int
	for _, r := range g.stillReached() {
		left = append(left, r.pid)
	}
	return left
}

// signalOutside sends sig to holders and to the processes reached before
// that still live, and to the groups they lead, and remembers them. A
// group is signalled before its leader: a leader that dies of the signal
// may be reaped at once, and its group, whose members live on, is then
// no longer found through it.
func (g *Group) signalOutside(holders []int, sig syscall.Signal) {
	for _, r := range g.reach(holders) {
		if r.leads && r.pid != g.pid {
			syscall.Kill(-r.pid, sig)
		}
		syscall.Kill(r.pid, sig)
	}
}

// reach adds holders to the processes reached, forgets those that have
// ended, and returns what to signal: holders, and the others reached that
// still live or whose group does. A holder whose start cannot be read is
// signalled (it held a pipe a moment ago) but not remembered.
func (g *Group) reach(holders []int) []reachedProc {
	g.reachMu.Lock()
	defer g.reachMu.Unlock()
	targets := make([]reachedProc, 0, len(holders)+len(g.reached))
	for _, pid := range holders {
		pgid, err := syscall.Getpgid(pid)
		targets = append(targets, reachedProc{pid: pid, leads: err == nil && pgid == pid})
	}
	pids := slices.Clone(holders)
	for _, r := range g.reached {
		pids = append(pids, r.pid)
	}
	starts, err := liveStarts(pids)
	if err != nil {
		return targets // one reached before cannot be told from a reused pid
	}
	still := g.stillReachedWith(starts)
	for _, r := range still {
		if !slices.ContainsFunc(targets, func(t reachedProc) bool { return t.pid == r.pid }) {
			targets = append(targets, r)
		}
	}
	for _, t := range targets {
		known := slices.ContainsFunc(still, func(r reachedProc) bool { return r.pid == t.pid })
		if start, ok := starts[t.pid]; ok && !known {
			t.start = start
			still = append(still, t)
		}
	}
	g.reached = still
	return targets
}

// stillReached returns the processes reached that still live, or whose
// group does; all of them while the table cannot be read. Call it with
// reachMu held.
func (g *Group) stillReached() []reachedProc {
	if len(g.reached) == 0 {
		return nil
	}
	pids := make([]int, len(g.reached))
	for i, r := range g.reached {
		pids[i] = r.pid
	}
	starts, err := liveStarts(pids)
	if err != nil {
		return g.reached
	}
	return g.stillReachedWith(starts)
}

// stillReachedWith is stillReached with the start times of the live
// processes read. The id of a group that still has a member cannot name
// another group, so a group is known by it even after its leader ended.
func (g *Group) stillReachedWith(starts map[int]uint64) []reachedProc {
	var still []reachedProc
	for _, r := range g.reached {
		if start, ok := starts[r.pid]; ok && start == r.start || r.leads && groupLive(r.pid) {
			still = append(still, r)
		}
	}
	return still
}

// SignalGroup sends sig to the process group only, as a terminal's
// Ctrl-C does.
func (g *Group) SignalGroup(sig syscall.Signal) { syscall.Kill(-g.pid, sig) }

// Inode returns the inode number of the file fi describes: what names a
// pipe in the descriptors of the processes that hold it.
func Inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}

// bytesUnread counts the bytes waiting to be read from the pipe fd.
func bytesUnread(fd uintptr) int {
	n, _ := unix.IoctlGetInt(int(fd), fionread)
	return n
}

// TTYAttr makes the command the leader of a session of its own whose
// controlling terminal is its stdin (the slave side), as a terminal
// emulator does. A session leader also leads its process group, so the
// job's pid is still its group id and stop, kill and cancel reach it as
// any other job's. Ctrl-C written to the master goes, through the
// terminal's line discipline, to the terminal's foreground group.
func TTYAttr() *syscall.SysProcAttr {
	a := Attr() // a session of its own
	a.Setctty = true
	a.Ctty = 0 // the child's fd 0: the terminal
	return a
}

// Gone reports whether no process of the group is left, not even a
// zombie waiting for its parent: the kernel answers that without a walk of
// /proc. A group with only zombies left is not Live, yet not Gone either.
func (g *Group) Gone() bool {
	return errors.Is(syscall.Kill(-g.pid, 0), syscall.ESRCH) || g.cg != nil && !g.cg.Populated()
}
