package shell

import (
	"context"
	"errors"
	"syscall"
	"testing"

	"github.com/spillway-dev/spillway/internal/proc"
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
		out, err := r.Run(context.Background(), Command{Command: "sleep 100", Background: true})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, out.Job.PID)
	}
	all0, fds0 := proc.Walks()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	all, fds := proc.Walks()
	if fds != fds0 || all-all0 > 1 {
		t.Errorf("Close walked /proc %d times, %d of them reading descriptors; want at most one walk (for processes that left their jobs), none of descriptors", all-all0, fds-fds0)
	}
	for _, pid := range jobs {
		if err := syscall.Kill(-pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("job %d's process group is still there after Close (%v)", pid, err)
		}
	}
}
