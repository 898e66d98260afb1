//go:build linux

package proc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Where the kernel delegates a cgroup v2 group to this process, each
// session's commands run in a group of their own: the kernel then lists
// every process the session started, whatever it did to leave its job
// (setsid, a double fork, a cleared environment), kills them all with one
// write (cgroup.kill), says when none is left (cgroup.events), and counts
// their CPU time (cpu.stat). Ending a session is then a matter of its own
// group, not a walk of every process on the machine. Each command is
// forked straight into the group (clone3 with CLONE_INTO_CGROUP), so no
// process of it runs a moment outside.
//
// The server's sessions are grouped under one group of the server's,
// spillway-PID, made beside the server in its own group's tree when the
// first session needs one and removed when the last is gone. Where no
// group can be made — no cgroup v2 file system, a group not delegated to
// this user, a kernel older than cgroup.kill (5.14) — sessions are ended
// through their process groups and marks as before.

// cgroupTree is the server's group of session groups.
var cgroupTree struct {
	once   sync.Once
	base   string // the group the server's group is made in; "" when not in use
	why    string // why not in use
	mu     sync.Mutex
	dir    string // the server's group, while it exists
	users  int    // the session groups in it
	serial int
	spent  time.Duration // CPU time counted by the server's groups removed
	swept  bool          // the groups of servers gone were looked for
}

// detectCgroups finds where groups can be made, or why not.
func detectCgroups() {
	cgroupTree.once.Do(func() {
		cgroupTree.base, cgroupTree.why = cgroupBase()
	})
}

// cgroupBase returns the group of this process on the cgroup v2 file
// system if a group can be made in it and processes forked into that,
// or why not.
func cgroupBase() (string, string) {
	mnt := cgroup2Mount()
	if mnt == "" {
		return "", "no cgroup v2 file system is mounted"
	}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", "cannot read /proc/self/cgroup: " + err.Error()
	}
	var own string
	found := false
	for line := range strings.SplitSeq(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			own, found = p, true
		}
	}
	if !found {
		return "", "this process is in no cgroup v2 group"
	}
	base := filepath.Join(mnt, own)
	// A fork into a group needs write access to the cgroup.procs of the
	// group both share, the one the server is in.
	if err := unix.Access(filepath.Join(base, "cgroup.procs"), unix.W_OK); err != nil {
		return "", fmt.Sprintf("%s is not delegated to this user (%v)", base, err)
	}
	probe := filepath.Join(base, fmt.Sprintf("spillway-%d-probe", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil {
		return "", fmt.Sprintf("cannot make a group in %s (%v)", base, errors.Unwrap(err))
	}
	defer os.Remove(probe)
	// The root group has none: a group made has it where the kernel does.
	if _, err := os.Stat(filepath.Join(probe, "cgroup.kill")); err != nil {
		return "", "the kernel has no cgroup.kill (Linux 5.14 or later)"
	}
	return base, ""
}

// cgroup2Mount returns where the cgroup v2 file system is mounted, or "".
func cgroup2Mount() string {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE ...
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		if fs := strings.Fields(post); len(fs) > 0 && fs[0] == "cgroup2" {
			if f := strings.Fields(pre); len(f) >= 5 {
				return f[4]
			}
		}
	}
	return ""
}

// CgroupStatus says whether sessions' commands run in cgroups of their
// own here, and why not.
func CgroupStatus() (inUse bool, why string) {
	detectCgroups()
	if cgroupTree.base == "" {
		return false, cgroupTree.why
	}
	return true, cgroupTree.base
}

// A Cgroup is the group of one session's commands.
type Cgroup struct {
	dir string
}

// NewCgroup makes a session's group, or returns nil where groups are not
// in use or none can be made now.
func NewCgroup() *Cgroup {
	detectCgroups()
	if cgroupTree.base == "" {
		return nil
	}
	t := &cgroupTree
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.swept {
		t.swept = true
		sweepStale(t.base)
	}
	if t.users == 0 {
		t.dir = filepath.Join(t.base, "spillway-"+strconv.Itoa(os.Getpid()))
		if err := os.Mkdir(t.dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return nil
		}
	}
	t.serial++
	dir := filepath.Join(t.dir, "s"+strconv.Itoa(t.serial))
	if err := os.Mkdir(dir, 0o755); err != nil {
		if t.users == 0 {
			os.Remove(t.dir)
		}
		return nil
	}
	t.users++
	return &Cgroup{dir: dir}
}

// sweepStale removes the groups of servers that are gone — killed
// outright, a server removes its own — and ends what is still in them:
// the commands of a dead server's sessions have no one to answer to.
func sweepStale(base string) {
	dirs, _ := filepath.Glob(filepath.Join(base, "spillway-*"))
	for _, d := range dirs {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(d), "spillway-"))
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue // not a server's (a probe), or ours
		}
		if err := syscall.Kill(pid, 0); err == nil || errors.Is(err, syscall.EPERM) {
			continue // that server still runs
		}
		removeTree(d)
	}
}

// removeTree ends every process in group dir and below, and removes the
// groups, deepest first.
func removeTree(dir string) {
	c := &Cgroup{dir: dir}
	if c.Populated() {
		os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
		c.waitEmpty(time.Second)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			removeTree(filepath.Join(dir, e.Name()))
		}
	}
	os.Remove(dir)
}

// open returns a descriptor of the group's directory, for clone3.
func (c *Cgroup) open() (int, error) {
	return unix.Open(c.dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
}

// Populated reports whether a live process is in the group (a zombie is
// not: it left the group when it exited).
func (c *Cgroup) Populated() bool {
	b, err := os.ReadFile(filepath.Join(c.dir, "cgroup.events"))
	if err != nil {
		return false // removed: nothing can be in it
	}
	return bytes.Contains(b, []byte("populated 1"))
}

// Signal sends sig to every process in the group.
func (c *Cgroup) Signal(sig syscall.Signal) {
	b, _ := os.ReadFile(filepath.Join(c.dir, "cgroup.procs"))
	for f := range strings.FieldsSeq(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			syscall.Kill(pid, sig)
		}
	}
}

// End ends every process of the group: SIGTERM, then SIGKILL to what is
// left after grace, and waits up to grace more for the group to empty. It reports whether
// the group emptied.
func (c *Cgroup) End(grace time.Duration) bool {
	if !c.Populated() {
		return true
	}
	c.Signal(syscall.SIGTERM)
	if c.waitEmpty(grace) {
		return true
	}
	c.Kill()
	return c.waitEmpty(grace)
}

// Kill sends SIGKILL to every process in the group, with one write to
// cgroup.kill, which no fork can race.
func (c *Cgroup) Kill() { os.WriteFile(filepath.Join(c.dir, "cgroup.kill"), []byte("1"), 0) }

// waitEmpty polls cgroup.events until the group is empty, for at most d.
func (c *Cgroup) waitEmpty(d time.Duration) bool {
	deadline := time.Now().Add(d)
	pause := time.Millisecond
	for c.Populated() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
	return true
}

// cpuUsage reads the CPU time a group's processes have used, those of its
// removed groups included, from its cpu.stat.
func cpuUsage(dir string) time.Duration {
	b, err := os.ReadFile(filepath.Join(dir, "cpu.stat"))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "usage_usec "); ok {
			us, _ := strconv.ParseInt(v, 10, 64)
			return time.Duration(us) * time.Microsecond
		}
	}
	return 0
}

// CgroupsCPU returns the CPU time the sessions' commands have used since
// the server started, counted by their cgroups, and whether cgroups are
// in use (it is 0 and false where they are not). The server's group
// counts what its removed session groups used; what it counted is kept
// when it is removed in turn.
func CgroupsCPU() (time.Duration, bool) {
	detectCgroups()
	if cgroupTree.base == "" {
		return 0, false
	}
	t := &cgroupTree
	t.mu.Lock()
	defer t.mu.Unlock()
	total := t.spent
	if t.users > 0 {
		total += cpuUsage(t.dir)
	}
	return total, true
}

// Remove removes the group, once empty, and the server's group with the
// last session's. A group a process still holds stays.
func (c *Cgroup) Remove() {
	if err := os.Remove(c.dir); err != nil {
		return
	}
	t := &cgroupTree
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.users--; t.users == 0 {
		t.spent += cpuUsage(t.dir)
		os.Remove(t.dir)
	}
}

// InCgroup makes the group's shell start in c (nil: none), the group of
// its session: every process of the job is then in c, and Live and Gone
// ask c, which no zombie keeps populated, before /proc.
func (g *Group) InCgroup(c *Cgroup) { g.cg = c }

// Cgroup returns the cgroup the group's shell was started in, nil when
// none (not asked for, or the fork into it failed).
func (g *Group) Cgroup() *Cgroup { return g.cg }

// intoCgroup sets cmd to be forked into the group's cgroup, if it has
// one, and returns what closes the descriptor that takes once cmd has
// started.
func (g *Group) intoCgroup(cmd *exec.Cmd) (done func()) {
	if g.cg == nil {
		return func() {}
	}
	fd, err := g.cg.open()
	if err != nil {
		g.cg = nil
		return func() {}
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
	return func() {
		unix.Close(fd)
		cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = false, 0
	}
}
