//go:build linux && !spillway_portable

package shell

import (
	"os/exec"
	"slices"
	"syscall"
	"testing"

	"github.com/spillway-dev/spillway/output"
)

// pipeHolders finds a process outside our group that holds our pipe.
func TestPipeHolders(t *testing.T) {
	s, w, err := newStream("stdout", output.New(output.Options{Limits: output.DefaultLimits}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.r.Close()
	cmd := exec.Command("sleep", "30")
	cmd.Stdout = w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer cmd.Wait()
	holders := pipeHolders([]uint64{s.ino})
	cmd.Process.Kill()
	if s.ino == 0 || !slices.Equal(holders, []int{cmd.Process.Pid}) {
		t.Errorf("ino %d holders %v, want [%d]", s.ino, holders, cmd.Process.Pid)
	}
	if h := pipeHolders([]uint64{s.ino + 1<<40}); len(h) != 0 {
		t.Errorf("holders of an unknown pipe: %v", h)
	}
}
