package proc

import "sync"

// A Group is the processes of one job: its shell, which leads a process
// group (and session) of its own, what the shell started in that group,
// and the processes outside it that may still write to the job's pipes.
type Group struct {
	pid int // the shell's, and so the group's, id; set by Start
	// cg is the cgroup of the job's session, which holds every process
	// of the job; nil where none is used.
	cg *Cgroup

	// exited is closed once the shell has exited, drained once every
	// pipe of the job is read to its end and closed on our side.
	exited, drained <-chan struct{}
	// pipes calls its argument with the job's pipes still open on our
	// side (see NewGroup).
	pipes func(func(inodes []uint64, terminals []string))

	//lint:ignore U1000 used where the portable tracking is built (family.go)
	family family // the processes seen descending from the shell
	//lint:ignore U1000 used where the portable tracking is built (family.go)
	mark string // NAME=VALUE in the job's environment that its processes inherit ("" for none)

	// reached are the holders of the job's pipes that Signal has sent a
	// signal to (group_unix.go). One outside the group is followed
	// through those pipes, and they close before it has ended: the
	// kernel closes a dying process's files a moment before it is a
	// zombie, and a process may close them itself on SIGTERM and run on.
	reachMu sync.Mutex
	reached []reachedProc
}

// A reachedProc is a process Signal reached, known by its pid and its
// start time, so that its pid, once reused, is not taken for it.
type reachedProc struct {
	pid   int
	start uint64
	leads bool // it led a process group of its own when it was reached
}

// NewGroup returns the Group of a job about to be started. exited is
// closed once the job's shell has exited; drained once its pipes are
// read to their end and closed. pipes calls fn with the inodes of the
// job's pipes still open on our side and the names of its terminals
// ("/dev/pts/N"), and closes none of them until fn returns: once the read
// end of a pipe is closed, the kernel may give its inode to a new pipe of
// anyone.
func NewGroup(exited, drained <-chan struct{}, pipes func(fn func(inodes []uint64, terminals []string))) *Group {
	return &Group{exited: exited, drained: drained, pipes: pipes}
}

// Live reports whether the job's process group has a member that is not
// a zombie (on Windows: whether its shell still runs).
func (g *Group) Live() bool {
	if g.cg != nil && !g.cg.Populated() {
		return false // not even the session's other jobs are left
	}
	return groupLive(g.pid)
}

// Watch begins to follow the job, once started: it lists its group
// with the watcher that kills it should the server die, and, where the
// process table stands in for /proc, starts reading that table.
func (g *Group) Watch() {
	g.watchFamily()
	watch(g.pid)
}

// Forget takes the group off the watcher's list, once nothing of the
// job is left: its id may soon name an unrelated group.
func (g *Group) Forget() { unwatch(g.pid) }
