//go:build linux && !spillway_portable

package proc

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
)

// pipeHolders finds a process outside our group that holds our pipe.
func TestPipeHolders(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var ino uint64
	if fi, err := r.Stat(); err == nil {
		ino = Inode(fi)
	}
	cmd := exec.Command("sleep", "30")
	cmd.Stdout = w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer cmd.Wait()
	holders := pipeHolders([]uint64{ino})
	cmd.Process.Kill()
	if ino == 0 || !slices.Equal(holders, []int{cmd.Process.Pid}) {
		t.Errorf("ino %d holders %v, want [%d]", ino, holders, cmd.Process.Pid)
	}
	if h := pipeHolders([]uint64{ino + 1<<40}); len(h) != 0 {
		t.Errorf("holders of an unknown pipe: %v", h)
	}
}
