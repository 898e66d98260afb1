//go:build unix

package spillway_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// 1000 sequential calls — quick ones, timeouts that background and are
// then killed, lingering children (in the group and setsid) that are then
// killed, commands on a terminal (quick, timed out and killed, prompting
// and answered, a full-screen program quit) and on a stdin pipe that is then closed, commands in 40
// named sessions (more than a toolset keeps) and with args, spilled
// results shown again from the history — leave goroutines, open
// descriptors and processes as they were.
func TestBashNoLeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("1000 calls")
	}
	b := make([]byte, 8)
	rand.Read(b)
	mark := hex.EncodeToString(b)
	ts := bashToolset(t, spillway.Options{Env: map[string]string{"SPILLWAY_LEAK_MARK": mark}})
	// Starts the spawner thread and makes the spill directory, whose
	// handles the session holds for its whole life.
	bashRun(t, ts, spillway.BashInput{Command: "seq 1 100", MaxLines: 10})

	goroutines, fds, children := bashCounts()
	t.Logf("before: %d goroutines, %d fds, %d children", goroutines, fds, children)
	kinds := map[string]int{}
	spent := map[string]time.Duration{}
	start := time.Now()
	for i := range 1000 {
		callStart := time.Now()
		var r spillway.Result[spillway.BashDetails]
		kind := ""
		switch {
		case i%40 == 0:
			kind = "setsid lingering child, then kill_pid"
			r = bashRun(t, ts, spillway.BashInput{Command: "setsid sleep 30 & echo x"})
		case i%40 == 20:
			kind = "lingering child, then kill_pid"
			r = bashRun(t, ts, spillway.BashInput{Command: "sleep 30 & echo x"})
		case i%40 == 10:
			kind = "tty prompt, backgrounded early, answered"
			r = bashRun(t, ts, spillway.BashInput{Command: "read -p 'name? ' x; echo hello $x", TTY: true, Timeout: 30 * time.Second})
			if !r.Details.Waiting {
				t.Fatalf("call %d (%s): not waiting: %+v %q", i, kind, r.Details, r.Text)
			}
			r = writeStdin(t, ts, spillway.WriteStdinInput{PID: r.Details.PID, Input: "world\n"})
		case i%40 == 30:
			kind = "stdin pipe, backgrounded early, closed"
			r = bashRun(t, ts, spillway.BashInput{Command: "cat", Stdin: true, Timeout: 30 * time.Second})
			if !r.Details.Waiting {
				t.Fatalf("call %d (%s): not waiting: %+v %q", i, kind, r.Details, r.Text)
			}
			r = writeStdin(t, ts, spillway.WriteStdinInput{PID: r.Details.PID, Input: "x\n", CloseStdin: true})
		case i%20 == 2:
			kind = "tty, quick"
			r = bashRun(t, ts, spillway.BashInput{Command: "echo tty; tty", TTY: true})
		case i%20 == 12:
			kind = "tty, timeout to background, then kill_pid"
			r = bashRun(t, ts, spillway.BashInput{Command: "echo t; sleep 30", TTY: true, Timeout: 20 * time.Millisecond})
		case i%40 == 25:
			kind = "tty full screen (less), quit with q"
			r = bashRun(t, ts, spillway.BashInput{Command: "seq 1 200 | less", TTY: true, Timeout: 30 * time.Second})
			if !r.Details.Waiting || !strings.HasPrefix(r.Text, "[screen ") {
				t.Fatalf("call %d (%s): not a screen waiting for keys: %+v %q", i, kind, r.Details, r.Text)
			}
			r = writeStdin(t, ts, spillway.WriteStdinInput{PID: r.Details.PID, Input: "q"})
		case i%10 == 5:
			kind = "timeout to background, then kill_pid"
			r = bashRun(t, ts, spillway.BashInput{Command: "echo t; sleep 30", Timeout: 20 * time.Millisecond})
		case i%3 == 0:
			kind = "quick, spilled"
			r = bashRun(t, ts, spillway.BashInput{Command: "seq 1 100; seq 1 100 >&2", MaxLines: 10})
			if r.Details.Stdout.FullOutputPath == "" || r.Details.Stderr.FullOutputPath == "" {
				t.Fatalf("call %d: not spilled: %+v", i, r.Details)
			}
			again, err := ts.History(context.Background(), spillway.HistoryInput{ID: r.Details.HistoryID, Stream: "stdout", Strategy: "tail", MaxLines: 2})
			if err != nil || !strings.Contains(again.Text, "99\n100\n") {
				t.Fatalf("call %d: shown again: %v %q", i, err, again.Text)
			}
		case i%3 == 1:
			kind = "quick, failing, with args"
			r = bashRun(t, ts, spillway.BashInput{Command: "sh", Args: []string{"-c", "echo e >&2; exit 1"}})
		default:
			kind = "quick, in a session"
			r = bashRun(t, ts, spillway.BashInput{Command: "cd / && export N=" + strconv.Itoa(i) + " && echo $N", Session: "s" + strconv.Itoa(i%40)})
		}
		kinds[kind]++
		if r.Details.Running {
			k := bashKill(t, ts, r.Details.PID)
			if k.Details.Running || k.IsError {
				t.Fatalf("call %d (%s): kill_pid: %+v %q", i, kind, k.Details, k.Text)
			}
		} else if strings.Contains(kind, "kill_pid") {
			t.Fatalf("call %d (%s): not running: %+v", i, kind, r.Details)
		}
		spent[kind] += time.Since(callStart)
	}
	t.Logf("1000 calls in %v", time.Since(start))
	for k, n := range kinds {
		t.Logf("  %3d × %-40s %v a call", n, k, spent[k]/time.Duration(n))
	}

	// Exited goroutines and reaped processes need a moment to be counted out.
	var g, f, c int
	var marked []int
	for range 500 {
		runtime.GC()
		g, f, c = bashCounts()
		marked = bashMarked("SPILLWAY_LEAK_MARK=" + mark)
		if g <= goroutines && f <= fds && c <= children && len(marked) == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("after: %d goroutines, %d fds, %d children, %d processes with the mark", g, f, c, len(marked))
	if g > goroutines || f > fds || c > children || len(marked) > 0 {
		t.Errorf("leak: goroutines %d→%d, fds %d→%d, children %d→%d, processes left %v", goroutines, g, fds, f, children, c, marked)
		buf := make([]byte, 1<<20)
		t.Logf("%s", buf[:runtime.Stack(buf, true)])
	}
}

// bashCounts counts this process's goroutines, open descriptors and
// child processes.
func bashCounts() (goroutines, fds, children int) {
	goroutines = runtime.NumGoroutine()
	ents, _ := os.ReadDir("/proc/self/fd")
	fds = len(ents)
	self := os.Getpid()
	for _, pid := range bashPids() {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		var p, ppid int
		var comm string
		var state byte
		// comm has no spaces for the processes we start; others may not
		// parse, and are not ours.
		if n, _ := fmt.Sscanf(string(b), "%d %s %c %d", &p, &comm, &state, &ppid); n == 4 && ppid == self {
			children++
		}
	}
	return
}
