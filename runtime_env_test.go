package spillway_test

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// A Python program that prints a line and then waits (a dev server saying
// where it listens) shows that line while it runs: on a pipe Python would
// hold it in its buffer until exit, unless PYTHONUNBUFFERED is set.
func TestBashPythonLineReachesCheckPID(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: `python3 -c "print('ready'); import time; time.sleep(30)"`, Timeout: 1500 * time.Millisecond})
	if !r.Details.Backgrounded || r.Details.PID == 0 {
		t.Fatalf("not backgrounded: %+v %q", r.Details, r.Text)
	}
	defer bashKill(t, ts, r.Details.PID)
	// A generous wait for a loaded machine to start Python; on an idle one
	// the line is in the first result. Unbuffered, print writes the text
	// and its newline apart, so a look between the two sees "ready"
	// alone, and the next look shows that unfinished line again, whole.
	looks := []string{r.Content}
	for i := 0; !strings.HasSuffix(looks[len(looks)-1], "\n") && i < 400; i++ {
		time.Sleep(50 * time.Millisecond)
		c := bashCheck(t, ts, r.Details.PID)
		if c.Content != "" {
			looks = append(looks, c.Content)
		}
		if !c.Details.Running {
			break
		}
	}
	for _, l := range looks[:len(looks)-1] {
		if !strings.HasPrefix("ready", l) {
			t.Errorf("an unfinished look %q is not the start of the line", l)
		}
	}
	if last := looks[len(looks)-1]; last != "ready\n" {
		t.Errorf("output while Python runs: looks %q, want the last %q", looks, "ready\n")
	}
}

// The variables that make runtimes write per line are in every command's
// environment, and a call's own env still wins.
func TestBashLineBufferingEnv(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: `echo "$PYTHONUNBUFFERED"`})
	if r.Content != "1\n" {
		t.Errorf("PYTHONUNBUFFERED: %q", r.Content)
	}
	r = bashRun(t, ts, spillway.BashInput{Command: `echo "${PYTHONUNBUFFERED-unset}"`, Env: map[string]string{"PYTHONUNBUFFERED": ""}})
	if r.Content != "\n" {
		t.Errorf("a call's env does not win: %q", r.Content)
	}
}
