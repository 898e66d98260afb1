package spillway_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// A progress block redrawn 30 times with the cursor moved up shows as its
// final state, not as 90 lines of history.
func TestBashProgressRedrawCollapses(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	for _, up := range []string{`\033[3A`, `\033[3F`, `\033[1A\033[2K\033[1A\033[2K\033[1A\033[2K`} {
		cmd := `echo start; for i in $(seq 1 30); do [ $i -gt 1 ] && printf '` + up + `'; ` +
			`for s in 1 2 3; do printf 'step %d: %d/30\n' $s $i; done; done; echo end`
		r := bashRun(t, ts, spillway.BashInput{Command: cmd})
		want := "start\nstep 1: 30/30\nstep 2: 30/30\nstep 3: 30/30\nend"
		if !strings.HasPrefix(r.Text, "stdout:\n"+want+"\n") {
			t.Fatalf("%s: got %q", up, r.Text)
		}
	}
}

// A dev server's ready line followed by silence shows in check_pid while
// it runs: the lines held back for redraws are shown at a look.
func TestDevServerReadyLineShows(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{
		Command: `python3 -u -c "print('ready'); import time; time.sleep(30)"`,
		Timeout: 1500 * time.Millisecond,
	})
	pid := r.Details.PID
	defer ts.KillJob(context.Background(), spillway.KillJobInput{PID: pid})
	seen := r.Text
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(seen, "ready") && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		seen += bashCheck(t, ts, pid).Text
	}
	if !strings.Contains(seen, "ready\n") {
		t.Fatalf("the ready line never showed: %q", seen)
	}
}
