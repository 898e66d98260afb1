//go:build unix && (!linux || spillway_portable)

package proc

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"
)

// The family follows a child that left the group (setsid) through its
// parent, keeps it once it is orphaned, and drops a pid that is reused.
func TestFamilyFollowsChildrenThatLeaveTheGroup(t *testing.T) {
	const self, shell = 100, 200
	var f family
	f.observe([]procEntry{
		{pid: self, ppid: 1, pgid: self, live: true, start: 1},
		{pid: shell, ppid: self, pgid: shell, live: true, start: 2},
		{pid: 202, ppid: 201, pgid: 202, live: true, start: 4}, // listed before its parent
		{pid: 201, ppid: shell, pgid: 201, live: true, start: 3},
		{pid: 300, ppid: self, pgid: 300, live: true, start: 3}, // another job
		{pid: 400, ppid: 1, pgid: 400, live: true, start: 3},    // a stranger
	}, shell, self)
	tab := []procEntry{
		{pid: self, ppid: 1, pgid: self, live: true, start: 1},
		{pid: 201, ppid: 1, pgid: 201, live: true, start: 3}, // orphaned
		{pid: 202, ppid: 201, pgid: 202, live: false, start: 4},
		{pid: 300, ppid: self, pgid: 300, live: true, start: 3},
		{pid: 400, ppid: 1, pgid: 400, live: true, start: 3},
	}
	f.observe(tab, shell, self)
	if got := f.outside(tab, shell); !slices.Equal(got, []int{201}) {
		t.Errorf("outside the group: %v, want [201]", got)
	}
	reused := []procEntry{{pid: 201, ppid: 1, pgid: 201, live: true, start: 9}}
	f.observe(reused, shell, self)
	if got := f.outside(reused, shell); len(got) != 0 {
		t.Errorf("a reused pid is taken for a member: %v", got)
	}
}

// The process table holds this process and a child with its group.
func TestReadTable(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	tab, err := readTable()
	if err != nil {
		t.Fatal(err)
	}
	var me, child bool
	for _, e := range tab {
		me = me || e.pid == os.Getpid() && e.live
		child = child || e.pid == cmd.Process.Pid && e.ppid == os.Getpid() && e.pgid == cmd.Process.Pid && e.live
	}
	if !me || !child {
		t.Errorf("table of %d entries: self %v, child %v", len(tab), me, child)
	}
}

// A job's family includes a setsid child seen while its parent lives.
func TestWatchFamilySeesASetsidChild(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("sh", "-c", "setsid sleep 30 & echo $!; wait")
	cmd.Stdout = w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	buf := make([]byte, 32)
	n, _ := r.Read(buf)
	var child int
	for _, c := range buf[:n] {
		if c >= '0' && c <= '9' {
			child = child*10 + int(c-'0')
		}
	}
	defer func() { syscall.Kill(child, syscall.SIGKILL); cmd.Wait() }()
	g := &Group{pid: cmd.Process.Pid, exited: make(chan struct{}), drained: make(chan struct{})}
	for i := 0; i < 500; i++ { // setsid happens after the fork: wait for it
		if slices.Contains(g.pipeHolders(), child) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("setsid child %d not in the family (outside the group: %v)", child, g.pipeHolders())
}
