package shell

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/proc"
	"github.com/spillway-dev/spillway/tool"
)

// Closing a session ends its jobs by their process groups, asking the
// kernel whether each has ended: thousands of sessions ending at once must
// not each walk every process on the machine and its descriptors. Before,
// each job's stop walked /proc twice (its group's members, and every
// process's descriptors for its pipes' holders).
func TestCloseEndsJobsWithoutReadingDescriptors(t *testing.T) {
	r := NewRunner(defaultConfig(t))
	var jobs []int
	for range 8 {
		out, err := r.Run(context.Background(), tool.BashInput{Command: "sleep 100", RunInBackground: true})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, out.Details.PID)
	}
	all0, fds0 := proc.Walks()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	all, fds := proc.Walks()
	// Without a cgroup, one walk looks for processes that left their jobs
	// by the session's mark; the cgroup holds those.
	most := uint64(1)
	if inUse, _ := proc.CgroupStatus(); inUse {
		most = 0
	}
	if fds != fds0 || all-all0 > most {
		t.Errorf("Close walked /proc %d times, %d of them reading descriptors; want at most %d walks, none of descriptors", all-all0, fds-fds0, most)
	}
	for _, pid := range jobs {
		if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("job %d's process group is still there after Close (%v)", pid, err)
		}
	}
}

// Where the session's commands run in a cgroup of their own, its end
// reaches a process that left everything a walk of /proc could find it
// by: its job's process group and session (setsid), its pipes (closed),
// and the session's mark in its environment (env -i). Before, such a
// daemon outlived its session.
func TestCloseEndsWhatLeftItsJob(t *testing.T) {
	if inUse, why := proc.CgroupStatus(); !inUse {
		t.Skip("no cgroups here: " + why)
	}
	r := NewRunner(defaultConfig(t))
	tag := "spillway-escape-" + strconv.Itoa(os.Getpid())
	_, err := r.Run(context.Background(), tool.BashInput{Command: "(setsid env -i bash -c 'exec -a " + tag + " sleep 600' </dev/null >/dev/null 2>&1 &)"})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); len(withArg0(tag)) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			r.Close()
			t.Fatal("the daemon did not start")
		}
	}
	r.Close()
	if left := withArg0(tag); len(left) > 0 {
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Errorf("the session's end left %v running", left)
	}
}

// withArg0 returns the live processes whose argv[0] is name.
func withArg0(name string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.HasPrefix(string(b), name+"\x00") {
			pids = append(pids, pid)
		}
	}
	return pids
}
