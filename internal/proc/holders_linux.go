//go:build linux && !spillway_portable

package proc

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strconv"
	"syscall"
)

// This file answers two questions the kernel has no direct call for, by
// reading /proc:
//
//   - Does a process group still have a live member? kill(-pgid, 0)
//     succeeds as long as a zombie of the group waits to be reaped, and an
//     orphan's zombie waits for PID 1, which may be slow. Zombies hold no
//     resources and cannot be signalled, so they do not count.
//   - Which processes hold our pipes? A child that called setsid(2) has
//     left the process group but may still write to the command's stdout;
//     it is found through the pipe inode its /proc/PID/fd links name (or,
//     for a command on a terminal, the terminal's name).

// pipeHolders returns the live processes, other than this one, that hold
// one of the job's pipes still open on our side.
func (g *Group) pipeHolders() []int {
	var holders []int
	g.pipes(func(inodes []uint64, terminals []string) {
		holders = pipeHolders(inodes, terminals...)
	})
	return holders
}

// HoldersLeft reports whether a live process may still write to the
// pipes: a member of the process group, or a process that holds one.
func (g *Group) HoldersLeft() bool {
	return groupLive(g.pid) || len(g.pipeHolders()) > 0
}

// family is not needed where /proc names the holders of a pipe.
//
//lint:ignore U1000 the Group's family field, which the portable tracking fills
type family struct{}

// watchFamily has nothing to watch where /proc names the holders of a pipe.
func (g *Group) watchFamily() {}

// ShellExited has nothing to do where /proc names the holders of a pipe.
func (g *Group) ShellExited() {}

// MarkEnv adds nothing: the holders of a pipe are found without a mark.
func (g *Group) MarkEnv(env []string) []string { return env }

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
	return freshSnapshot(0).groupLive(pgid)
}

// pipeHolders returns the live processes, other than this one, that hold
// an open descriptor on one of the pipes with the given inodes, or on one
// of the terminals named ("/dev/pts/N").
func pipeHolders(inodes []uint64, terminals ...string) []int {
	if len(inodes)+len(terminals) == 0 {
		return nil
	}
	want := make([]string, len(inodes), len(inodes)+len(terminals))
	for i, ino := range inodes {
		want[i] = "pipe:[" + strconv.FormatUint(ino, 10) + "]"
	}
	want = append(want, terminals...)
	snap := freshSnapshot(withFDs)
	self := os.Getpid()
	var holders []int
	for _, w := range want {
		for _, ref := range snap.links[w] {
			// A read end does not count: between fork and exec, a command
			// being started holds a copy of every descriptor of this
			// process, the read ends of the other commands' pipes
			// included, and must not be taken for (and killed as) one of
			// their holders. (The soak test saw such children killed by
			// another job's kill_pid.) Its state is read again: the walk
			// may have seen it a moment ago.
			if ref.pid == self || slices.Contains(holders, ref.pid) || !canWrite(ref.pid, ref.fd) {
				continue
			}
			if st, ok := readStat(ref.pid); ok && st.live() && !starting(ref.pid, st, self) {
				holders = append(holders, ref.pid)
			}
		}
	}
	slices.Sort(holders)
	return holders
}

// starting reports whether pid is one of our commands being started: a
// child of this process that has not yet replaced this program by its own
// (every command calls setsid(2) before its exec, so its session says
// nothing). Between fork and exec it holds a copy of every descriptor of
// this process, the write end of a pipe of a command started a moment
// before included; it is not that command's holder, and must not get
// that command's SIGTERM. After its exec the copies are closed
// (close-on-exec), a sandbox helper that runs this program again
// included.
func starting(pid int, st procStat, self int) bool {
	if st.ppid != self {
		return false
	}
	exe, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return false
	}
	own, err := os.Stat("/proc/self/exe")
	return err == nil && os.SameFile(exe, own)
}

// canWrite reports whether descriptor fd of pid is open for writing, as
// the flags of /proc/PID/fdinfo/FD say (in octal). A descriptor closed
// since it was listed is not.
func canWrite(pid int, fd string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/fdinfo/" + fd)
	if err != nil {
		return false
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("flags:")); ok {
			flags, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 8, 64)
			return err != nil || flags&syscall.O_ACCMODE != syscall.O_RDONLY
		}
	}
	return true
}
