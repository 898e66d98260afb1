//go:build unix

package spillway_test

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// A child that leaves the job's session but keeps its terminal is still
// stopped by kill_pid: it is found as a holder of the terminal, as a
// pipe's holders are, and a reader it keeps going can be cut off.
func TestTTYSetsidChildKilled(t *testing.T) {
	t.Parallel()
	mark := fmt.Sprintf("SPILLWAY_TTY_MARK=%d", time.Now().UnixNano())
	k, v, _ := strings.Cut(mark, "=")
	ts := bashToolset(t, spillway.Options{Env: map[string]string{k: v}})
	r := bashRun(t, ts, spillway.BashInput{Command: "setsid sleep 300 & sleep 0.2; echo started", TTY: true})
	if !r.Details.Running || !strings.Contains(r.Content, "started") {
		t.Fatalf("%+v\n%q", r.Details, r.Text)
	}
	done := make(chan spillway.Result[spillway.BashDetails], 1)
	go func() { done <- bashKill(t, ts, r.Details.PID) }()
	select {
	case k := <-done:
		if k.Details.Running || !strings.Contains(k.Text, "SIGTERM") {
			t.Errorf("kill_pid: %+v\n%q", k.Details, k.Text)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("kill_pid did not return: the setsid child keeps the terminal")
	}
	if left := bashMarked(mark); len(left) > 0 {
		t.Errorf("processes left: %v", left)
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
