package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A session's cgroup holds what its commands start, forked straight into
// it; End ends all of it, a process that left the command's process group
// and session included; its CPU time stays counted once the group is
// removed; and the server's group goes with the last session's.
func TestCgroupHoldsEndsAndCounts(t *testing.T) {
	if inUse, why := CgroupStatus(); !inUse {
		t.Skip("no cgroups here: " + why)
	}
	cpu0, _ := CgroupsCPU()
	cg := NewCgroup()
	if cg == nil {
		t.Fatal("NewCgroup: nil where CgroupStatus says cgroups are in use")
	}
	server := filepath.Dir(cg.dir)
	// Some CPU, then a daemon that leaves the group and session.
	cmd := exec.Command("bash", "-c", "for i in $(seq 30000); do :; done; setsid sleep 600 </dev/null >/dev/null 2>&1 &")
	cmd.SysProcAttr = Attr()
	g := &Group{}
	g.InCgroup(cg)
	if err := g.Start(cmd); err != nil {
		t.Fatal(err)
	}
	if g.Cgroup() != cg {
		t.Fatal("the command did not start in the session's cgroup")
	}
	cmd.Wait()
	if !cg.Populated() {
		t.Fatal("the daemon is not in the session's cgroup")
	}
	if !cg.End(2 * time.Second) {
		t.Fatal("End: the group did not empty")
	}
	if cg.Populated() {
		t.Error("the group is still populated after End")
	}
	cg.Remove()
	for _, dir := range []string{cg.dir, server} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s is still there after the last session's Remove (%v)", dir, err)
		}
	}
	if cpu, _ := CgroupsCPU(); cpu <= cpu0 {
		t.Errorf("CgroupsCPU %v after the commands ran and their group was removed, %v before", cpu, cpu0)
	}
}

// A server killed outright leaves its session groups: the next server's
// first session removes them, and ends what is still in them.
func TestCgroupsOfAServerGoneAreSwept(t *testing.T) {
	inUse, base := CgroupStatus()
	if !inUse {
		t.Skip("no cgroups here: " + base)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(base, fmt.Sprintf("spillway-%d", gone.Process.Pid))
	session := filepath.Join(stale, "s1")
	if err := os.MkdirAll(session, 0o755); err != nil {
		t.Fatal(err)
	}
	left := exec.Command("sleep", "600")
	left.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true}
	fd, err := (&Cgroup{dir: session}).open()
	if err != nil {
		t.Fatal(err)
	}
	left.SysProcAttr.CgroupFD = fd
	err = left.Start()
	syscall.Close(fd)
	if err != nil {
		removeTree(stale)
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { left.Wait(); close(exited) }()

	sweepStale(base)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		left.Process.Kill()
		t.Error("the command left in the dead server's group was not ended")
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v)", stale, err)
		removeTree(stale)
	}
}
