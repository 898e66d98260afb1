//go:build unix

package proc

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// A group whose only member is a zombie is not live, though kill(-pgid, 0)
// still succeeds.
func TestGroupLiveIgnoresZombies(t *testing.T) {
	cmd := exec.Command("true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	for i := 0; ; i++ {
		if isZombie(pid) {
			break
		}
		if i > 1000 {
			t.Fatal("no zombie")
		}
		time.Sleep(time.Millisecond)
	}
	if err := syscall.Kill(-pid, 0); err != nil {
		t.Fatalf("kill(-pgid, 0) on a zombie group: %v", err)
	}
	if groupLive(pid) {
		t.Error("a zombie-only group is live")
	}
	cmd.Wait()
	if groupLive(pid) {
		t.Error("an empty group is live")
	}
}
