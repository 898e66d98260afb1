package shell

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

func startBackground(t *testing.T, r *Runner, cmd string) int {
	t.Helper()
	pid, _ := startBackgroundOutput(t, r, cmd)
	return pid
}

// startBackgroundOutput starts cmd in the background and returns its pid
// and the stdout its first result showed (a quick command may have
// printed already).
func startBackgroundOutput(t *testing.T, r *Runner, cmd string) (int, string) {
	t.Helper()
	res, err := r.Run(context.Background(), tool.BashInput{Command: cmd, RunInBackground: true})
	if err != nil || res.Details.PID == 0 {
		t.Fatalf("starting %q: %v %+v", cmd, err, res)
	}
	return res.Details.PID, res.Stdout.Text()
}

// A check with a long wait returns because a new line came, not because
// the wait ran out: the job still runs and the line is in the result.
// The command prints the time it printed the line, so the latency from
// the line to the result can be measured (and is logged; a unit test sets
// no wall-clock bound on it).
func TestCheckWaitReturnsOnNewOutput(t *testing.T) {
	r := NewRunner(defaultConfig(t))
	defer r.Close()
	pid, first := startBackgroundOutput(t, r, "sleep 1; date +%s%N; exec sleep 60")
	if first != "" {
		t.Skipf("the start's result came after the line (%q): nothing left to wait for", first)
	}
	res, err := r.Check(context.Background(), pid, 50*time.Second, "")
	returned := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	if !res.Details.Running {
		t.Fatalf("the job ended: the check did not return because of the line: %q", res.Text)
	}
	if res.Details.DurationMS >= 50_000 {
		t.Fatalf("the check waited its whole timeout: %q", res.Text)
	}
	line := strings.TrimSpace(res.Stdout.Text())
	ns, err := strconv.ParseInt(line, 10, 64)
	if err != nil {
		t.Fatalf("the check returned without the new line: stdout %q", res.Stdout.Text())
	}
	t.Logf("check_pid returned %v after the line was printed", returned.Sub(time.Unix(0, ns)))
}

// A check waits for the end of a job that prints nothing more, and gives
// its exit code.
func TestCheckWaitReturnsAtTheEnd(t *testing.T) {
	r := NewRunner(defaultConfig(t))
	defer r.Close()
	pid := startBackground(t, r, "sleep 0.5; exit 3")
	res, err := r.Check(context.Background(), pid, 50*time.Second, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Details.Running || res.Details.ExitCode == nil || *res.Details.ExitCode != 3 {
		t.Fatalf("after the wait: %+v %q", res.Details, res.Text)
	}
}

// Output already there is returned at once, whatever the wait; with
// nothing new and a short wait, the check returns when it runs out.
func TestCheckWaitOutputAlreadyThere(t *testing.T) {
	r := NewRunner(defaultConfig(t))
	defer r.Close()
	pid, first := startBackgroundOutput(t, r, "echo ready; exec sleep 60")
	if !strings.Contains(first, "ready") {
		// The line came after the start's result: the check waits for it.
		res, err := r.Check(context.Background(), pid, 50*time.Second, "")
		if err != nil || !strings.Contains(res.Stdout.Text(), "ready") {
			t.Fatalf("first check: %v %q", err, res.Text)
		}
	}
	res, err := r.Check(context.Background(), pid, 100*time.Millisecond, "")
	if err != nil || !strings.Contains(res.Text, "(no new output)") || !res.Details.Running {
		t.Fatalf("second check: %v %q", err, res.Text)
	}
	// A cancelled context ends the wait too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Check(ctx, pid, 50*time.Second, ""); err != nil {
		t.Fatal(err)
	}
}
