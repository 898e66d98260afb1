//go:build unix

package proc

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// The watcher kills the groups still listed when its pipe reaches end of
// file (the server is gone), and leaves alone a group taken off the list.
func TestWatcherKillsListedGroupsAtEndOfFile(t *testing.T) {
	start := func() *exec.Cmd {
		cmd := exec.Command("sleep", "30")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	listed, unlisted := start(), start()
	defer unlisted.Process.Kill()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "+%d\n+%d\n-%d\n", listed.Process.Pid, unlisted.Process.Pid, unlisted.Process.Pid)
	w.Close() // the server's end closes when it dies
	runWatcher(r)
	r.Close()
	done := make(chan error, 1)
	go func() { done <- listed.Wait() }()
	select {
	case err := <-done:
		if ws, ok := listed.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
			t.Errorf("the listed group ended with %v, not SIGKILL", err)
		}
	case <-time.After(10 * time.Second):
		listed.Process.Kill()
		t.Fatal("the listed group outlived the watcher's end of file")
	}
	if err := syscall.Kill(unlisted.Process.Pid, 0); err != nil {
		t.Errorf("the unlisted group was killed: %v", err)
	}
}
