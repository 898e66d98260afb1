package proc

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// At end of file the watcher also kills the processes that carry a mark
// still listed, though they left every listed group (setsid), and leaves
// alone those whose mark was taken off the list.
func TestWatcherKillsMarkedProcessesAtEndOfFile(t *testing.T) {
	start := func(mark string) *exec.Cmd {
		cmd := exec.Command("sleep", "30")
		cmd.Env = append(os.Environ(), mark)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	listedMark, unlistedMark := newMark(), newMark()
	listed, unlisted := start(listedMark), start(unlistedMark)
	defer unlisted.Process.Kill()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "m%s\nm%s\nu%s\n", listedMark, unlistedMark, unlistedMark)
	w.Close()
	runWatcher(r)
	r.Close()
	done := make(chan struct{})
	go func() { listed.Wait(); close(done) }()
	select {
	case <-done:
		if ws, ok := listed.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
			t.Errorf("the marked process ended with %v, not SIGKILL", listed.ProcessState)
		}
	case <-time.After(10 * time.Second):
		listed.Process.Kill()
		t.Fatal("the marked process outlived the watcher's end of file")
	}
	if err := syscall.Kill(unlisted.Process.Pid, 0); err != nil {
		t.Errorf("the process whose mark was taken off was killed: %v", err)
	}
}
