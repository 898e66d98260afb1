//go:build unix

package spillway_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// Tests of the bash tool through the library API: the text and details
// of docs/tools.md and the whole process lifecycle. Durations are
// logged, never asserted tightly: the guards only catch hangs.

func TestBashDetailsJSON(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "echo hi"})
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	d := m["details"].(map[string]any)
	for _, k := range []string{"exit_code", "timed_out", "backgrounded", "running", "pid", "duration_ms", "stdout", "stderr"} {
		if _, ok := d[k]; !ok {
			t.Errorf("details lack %q: %s", k, b)
		}
	}
	tr := d["stdout"].(map[string]any)["truncation"].(map[string]any)
	if tr["total_lines"] != 1.0 || tr["truncated"] != false {
		t.Errorf("stdout truncation: %v", tr)
	}

	// A running job: exit_code is null.
	r = bashRun(t, ts, spillway.BashInput{Command: "sleep 30", RunInBackground: true})
	b, _ = json.Marshal(r.Details)
	if !strings.Contains(string(b), `"exit_code":null`) {
		t.Errorf("running job details: %s", b)
	}
}

func TestBashEnvironmentAndCwd(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	t.Setenv("SPILLWAY_TEST_INHERITED", "inherited")
	ts := bashToolset(t, spillway.Options{Cwd: dir, Env: map[string]string{"SESSION_VAR": "session", "OVERRIDDEN": "session"}})
	r := bashRun(t, ts, spillway.BashInput{
		Command: `echo "$TERM $NO_COLOR $PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT $GIT_EDITOR"; echo "$SPILLWAY_TEST_INHERITED $SESSION_VAR $OVERRIDDEN $CALL_VAR"; pwd`,
		Env:     map[string]string{"OVERRIDDEN": "call", "CALL_VAR": "call"},
		Cwd:     "sub",
	})
	want := "dumb 1 cat cat 0 true\ninherited session call call\n" + filepath.Join(dir, "sub") + "\n"
	if r.Content != want {
		t.Errorf("got %q, want %q", r.Content, want)
	}
	r = bashRun(t, ts, spillway.BashInput{Command: "pwd"})
	if r.Content != dir+"\n" {
		t.Errorf("session cwd: %q", r.Content)
	}
	_, err := ts.Bash(context.Background(), spillway.BashInput{Command: "pwd", Cwd: filepath.Join(dir, "missing")})
	if err == nil || !strings.Contains(err.Error(), "cwd") {
		t.Errorf("missing cwd: %v", err)
	}
}

func TestBashInputErrors(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	ctx := context.Background()
	cases := []struct {
		in   spillway.BashInput
		want string
	}{
		{spillway.BashInput{}, "give exactly one of command"},
		{spillway.BashInput{Command: "true", Timeout: -1}, `parameter "timeout": want at least 1, got -1`},
		{spillway.BashInput{Command: "true", MaxLines: -1}, `parameter "max_lines": want at least 1, got -1`},
		{spillway.BashInput{Command: "true", Env: map[string]string{"A=B": "x"}}, "not a variable name"},
	}
	for _, c := range cases {
		r, err := ts.Bash(ctx, c.in)
		if err == nil || !strings.HasPrefix(err.Error(), "bash: ") || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: got %v (result %q), want one line with %q", c.in, err, r.Text, c.want)
		}
	}
	if _, err := ts.CheckJob(ctx, spillway.CheckJobInput{PID: 999999}); err == nil || !strings.Contains(err.Error(), "this session has none") {
		t.Errorf("check of an unknown pid: %v", err)
	}
	if _, err := ts.KillJob(ctx, spillway.KillJobInput{PID: -1}); err == nil || !strings.Contains(err.Error(), `parameter "kill_pid": want at least 1, got -1`) {
		t.Errorf("kill of pid -1: %v", err)
	}
	// An unknown pid lists the known ones.
	a := bashRun(t, ts, spillway.BashInput{Command: "sleep 30", RunInBackground: true})
	b := bashRun(t, ts, spillway.BashInput{Command: "sleep 30", RunInBackground: true})
	_, err := ts.KillJob(ctx, spillway.KillJobInput{PID: 1})
	want := fmt.Sprintf("known pids: %d, %d", a.Details.PID, b.Details.PID)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("unknown pid: %v, want %q", err, want)
	}
}

// sleep 30 & echo started: the call returns soon after the shell exits,
// with its exit code, and the sleeper goes on as a job.
func TestBashLingeringChild(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	for _, c := range []struct{ name, command, out string }{
		{"background", "sleep 30 & echo started", "started"},
		{"setsid", "setsid sleep 30 & echo $!", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			r := bashRun(t, ts, spillway.BashInput{Command: c.command})
			took := time.Since(start)
			t.Logf("returned %v after the call began (the shell itself ran %d ms)", took, r.Details.DurationMS)
			if took > 15*time.Second {
				t.Fatalf("the call waited for the sleeper: %v", took)
			}
			if bashExit(r) != 0 || r.IsError || !r.Details.Running || !r.Details.Backgrounded || r.Details.PID <= 0 {
				t.Fatalf("details %+v\n%s", r.Details, r.Text)
			}
			if !strings.Contains(r.Text, "exit code: 0") || !strings.Contains(r.Text, fmt.Sprintf("check_pid=%d", r.Details.PID)) {
				t.Errorf("text: %q", r.Text)
			}
			sleeper := 0
			if c.out != "" {
				if !strings.HasPrefix(r.Content, c.out) {
					t.Errorf("stdout %q", r.Content)
				}
				if len(bashGroupMembers(r.Details.PID)) == 0 {
					t.Errorf("the sleeper is not in the group")
				}
			} else {
				sleeper, _ = strconv.Atoi(strings.TrimSpace(r.Content))
				sleeper = bashOuterPid(t, ts, sleeper)
				if !bashAlive(sleeper) {
					t.Fatalf("setsid sleeper %d not alive", sleeper)
				}
			}
			// The job is reachable and still running.
			chk := bashCheck(t, ts, r.Details.PID)
			if !chk.Details.Running || chk.IsError || !strings.Contains(chk.Text, "(no new output)") {
				t.Errorf("check_pid: %+v %q", chk.Details, chk.Text)
			}
			k := bashKill(t, ts, r.Details.PID)
			if k.Details.Running || k.IsError {
				t.Errorf("kill_pid: %+v %q", k.Details, k.Text)
			}
			if live := bashGroupMembers(r.Details.PID); len(live) > 0 {
				t.Errorf("group members left: %v", live)
			}
			if sleeper != 0 && bashAlive(sleeper) {
				t.Errorf("setsid sleeper %d survived kill_pid", sleeper)
			}
		})
	}
}

// A child that left the group (setsid) is followed through the pipes it
// holds; once they are at end of file it may still run. This one closes
// its output on SIGTERM and goes on, as a dying process does for the
// moment between closing its files and becoming a zombie: kill_pid waits
// for it to end, SIGKILLs it after the grace, and only then says the job
// has ended.
func TestBashKillPIDOutlastsClosedPipes(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: `setsid sh -c 'trap "exec >&- 2>&-; sleep 30" TERM; echo ready; while :; do sleep 0.2; done' & echo $!`})
	if !r.Details.Running || r.Details.PID <= 0 {
		t.Fatalf("details %+v\n%s", r.Details, r.Text)
	}
	// "ready" says the trap is set; it may come in the first result or in
	// a check, which shows only what is new. The child waits in short
	// sleeps: a child forked a moment before SIGTERM may take it with the
	// shell's handler, before its exec, and lose it.
	out, _ := bashWatch(t, ts, r.Details.PID, "the trap to be set", func(out string, _ spillway.Result[spillway.BashDetails]) bool {
		return strings.Contains(r.Content+out, "ready")
	})
	child := 0
	for _, line := range strings.Fields(r.Content + out) {
		if n, err := strconv.Atoi(line); err == nil {
			child = bashOuterPid(t, ts, n)
		}
	}
	if child <= 0 || !bashAlive(child) {
		t.Fatalf("setsid child %d not alive; output %q", child, r.Content+out)
	}
	t.Cleanup(func() {
		if bashAlive(child) {
			syscall.Kill(-child, syscall.SIGKILL)
		}
	})
	k := bashKill(t, ts, r.Details.PID)
	if k.Details.Running || k.IsError {
		t.Errorf("kill_pid: %+v %q", k.Details, k.Text)
	}
	if bashAlive(child) {
		t.Errorf("the setsid child %d closed its output on SIGTERM and survived kill_pid, which said: %q", child, k.Text)
	}
	if live := bashGroupMembers(child); len(live) > 0 {
		t.Errorf("members of the setsid child's group left: %v", live)
	}
}

// A quick child in the background is waited for a moment (200 ms), so
// that usually no job is left; on a machine too loaded for that, it is a
// job whose output comes with the next check. Either way nothing is lost.
func TestBashQuickChildIsNotAJob(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "(sleep 0.02; echo late) & echo now"})
	out := r.Content
	if r.Details.Running {
		t.Logf("the child outlived the grace: %q", r.Text)
		for i := 0; r.Details.Running && i < 2000; i++ {
			time.Sleep(5 * time.Millisecond)
			r = bashCheck(t, ts, r.Details.PID)
			out += r.Content
		}
	}
	if r.Details.Running || out != "now\nlate\n" || bashExit(r) != 0 {
		t.Errorf("%+v %q", r.Details, out)
	}
	// Children that closed their output but stay in the group are a job.
	r = bashRun(t, ts, spillway.BashInput{Command: "sleep 30 >/dev/null 2>&1 & echo x"})
	if !r.Details.Running || !r.Details.Backgrounded || bashExit(r) != 0 {
		t.Errorf("silent child: %+v %q", r.Details, r.Text)
	}
}

// echo first; sleep 3; echo second under a 1 s timeout: backgrounded with
// first; a check 3 s later shows second alone and the exit.
func TestBashTimeoutBackgrounds(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	start := time.Now()
	r := bashRun(t, ts, spillway.BashInput{Command: "echo first; sleep 3; echo second", Timeout: 1000 * time.Millisecond})
	t.Logf("backgrounded after %v", time.Since(start))
	d := r.Details
	if !d.TimedOut || !d.Backgrounded || !d.Running || d.ExitCode != nil || d.PID <= 0 || r.IsError {
		t.Fatalf("details %+v", d)
	}
	if !strings.Contains(r.Text, fmt.Sprintf("check_pid=%d", d.PID)) || !strings.Contains(r.Text, fmt.Sprintf("kill_pid=%d", d.PID)) {
		t.Errorf("text %q", r.Text)
	}
	rest := "second\n"
	switch r.Content {
	case "first\n":
	case "": // bash took over a second to start: a loaded machine
		t.Logf("nothing yet after the timeout: %q", r.Text)
		rest = "first\nsecond\n"
	default:
		t.Errorf("stdout at the timeout: %q", r.Content)
	}
	out, c := bashWatch(t, ts, d.PID, "the job's end", func(_ string, c spillway.Result[spillway.BashDetails]) bool {
		return !c.Details.Running
	})
	if out != rest || bashExit(c) != 0 || c.Details.Running || c.IsError || c.Details.TimedOut != true {
		t.Errorf("check_pid: %+v\n%q, want %q", c.Details, c.Text, rest)
	}
	// Once finished, a check says so again, with nothing new.
	c = bashCheck(t, ts, d.PID)
	if c.Text != "(no new output)\n\nexit code: 0" {
		t.Errorf("second check: %q", c.Text)
	}
}

// run_in_background, then kill_pid: nothing of the process group is left.
func TestBashKillPID(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "sleep 30 & (sleep 40; echo x) & echo up; wait", RunInBackground: true})
	pgid := r.Details.PID
	if !r.Details.Running || !r.Details.Backgrounded || r.Details.ExitCode != nil || !strings.Contains(r.Text, fmt.Sprintf("kill_pid=%d", pgid)) {
		t.Fatalf("%+v %q", r.Details, r.Text)
	}
	// The output is gathered from the first result on, then over the
	// checks: each returns only what is new, so "up" shows in one of
	// them, maybe before the last child starts — or already in the first
	// result, when the shell printed it before run_in_background returned
	// (a slow sandboxed start makes that likely).
	bashWatch(t, ts, pgid, "the children to start", func(out string, _ spillway.Result[spillway.BashDetails]) bool {
		return strings.Contains(r.Content+out, "up") && len(bashGroupMembers(pgid)) >= 4
	})
	start := time.Now()
	k := bashKill(t, ts, pgid)
	if k.Details.Running || k.IsError || k.Details.Signal != "SIGTERM" || bashExit(k) != 143 ||
		!strings.Contains(k.Text, "exit code: 143 (killed by SIGTERM)") {
		t.Errorf("kill_pid: %+v\n%q", k.Details, k.Text)
	}
	if live := bashGroupMembers(pgid); len(live) > 0 {
		t.Errorf("live group members after kill_pid: %v", live)
	}
	took, gone := bashGroupGone(pgid, 20*time.Second)
	t.Logf("kill(-pgid, 0) fails %v after kill_pid began", time.Since(start))
	if !gone {
		t.Errorf("kill(-pgid, 0) still succeeds after %v", took)
	}
}

// A command that ignores SIGTERM gets SIGKILL after 2 s.
func TestBashKillEscalates(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "trap '' TERM; echo ready; sleep 30", RunInBackground: true})
	// "ready" may be in the first result already; the checks show only
	// what is new.
	bashWatch(t, ts, r.Details.PID, "the trap to be set", func(out string, _ spillway.Result[spillway.BashDetails]) bool {
		return strings.Contains(r.Content+out, "ready")
	})
	k := bashKill(t, ts, r.Details.PID)
	if k.Details.Signal != "SIGKILL" || !strings.Contains(k.Text, "exit code: 137 (killed by SIGKILL)") || !strings.Contains(k.Text, "SIGKILL after 2s") {
		t.Errorf("%+v\n%q", k.Details, k.Text)
	}
	if live := bashGroupMembers(r.Details.PID); len(live) > 0 {
		t.Errorf("live: %v", live)
	}
}

// A cancelled context stops the whole process group.
func TestBashCancel(t *testing.T) {
	t.Parallel()
	// The mark is in the command's working directory, the one place a
	// command may write under the sandboxed suites.
	cwd := t.TempDir()
	ts := bashToolset(t, spillway.Options{Cwd: cwd})
	ctx, cancel := context.WithCancel(context.Background())
	var cancelled time.Time
	begun := filepath.Join(cwd, "begun")
	go func() {
		for i := 0; i < 4000; i++ { // until the children have started
			if _, err := os.Stat(begun); err == nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cancelled = time.Now()
		cancel()
	}()
	r, err := ts.Bash(ctx, spillway.BashInput{Command: "sleep 30 & (sleep 40; echo y) & echo begun; touch begun; wait"})
	returned := time.Since(cancelled)
	if err != nil {
		t.Fatal(err)
	}
	pgid := r.Details.PID
	if !r.IsError || r.Details.Running || !strings.Contains(r.Text, "begun") || !strings.Contains(r.Text, "Cancelled") {
		t.Errorf("%+v\n%q", r.Details, r.Text)
	}
	if live := bashGroupMembers(pgid); len(live) > 0 {
		t.Errorf("live group members after cancel: %v", live)
	}
	_, gone := bashGroupGone(pgid, 20*time.Second)
	t.Logf("call returned %v after cancel; kill(-pgid, 0) fails %v after cancel", returned, time.Since(cancelled))
	if !gone {
		t.Errorf("kill(-pgid, 0) still succeeds")
	}
	// A context already done starts nothing.
	if _, err := ts.Bash(ctx, spillway.BashInput{Command: "echo never"}); err == nil || !strings.Contains(err.Error(), "not started") {
		t.Errorf("done context: %v", err)
	}
}

// A background job whose output passes the limits keeps spilling: the
// check notices name the spill file, which ends up holding everything.
func TestBashBackgroundSpill(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "seq 1 200000", RunInBackground: true})
	var path string
	var lines int64
	for i := 0; ; i++ {
		c := bashCheck(t, ts, r.Details.PID)
		if p := c.Details.Stdout.FullOutputPath; p != "" {
			path = p
			// A check with nothing new shows no stdout section at all.
			if c.Content != "" && !strings.Contains(c.Text, "Full output: "+p) {
				t.Errorf("the notice does not name the spill file: %q", c.Text)
			}
		}
		lines += c.Details.Stdout.Truncation.TotalLines
		if !c.Details.Running {
			if bashExit(c) != 0 {
				t.Fatalf("%+v", c.Details)
			}
			break
		}
		if i > 5000 {
			t.Fatal("the job never finished")
		}
		time.Sleep(time.Millisecond)
	}
	if path == "" {
		t.Fatal("no spill file named")
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := 1; i <= 200000; i++ {
		want.WriteString(strconv.Itoa(i))
		want.WriteByte('\n')
	}
	if string(got) != want.String() {
		t.Errorf("spill file: %d bytes, want %d", len(got), want.Len())
	}
	if lines != 200000 {
		t.Errorf("the checks' windows count %d lines, want 200000", lines)
	}
}

// cat reads stdin, which is /dev/null: it ends at once.
func TestBashStdinIsDevNull(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "cat; read x; echo $?", Timeout: 20000 * time.Millisecond})
	if r.Details.TimedOut || r.Text != "stdout:\n1\n\nexit code: 0" {
		t.Errorf("%+v %q", r.Details, r.Text)
	}
}

// yes under a 1 s timeout is backgrounded, then killed cleanly.
func TestBashYesTimeoutThenKill(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "yes", Timeout: 1000 * time.Millisecond})
	if !r.Details.TimedOut || !r.Details.Running || !r.Details.Stdout.Truncation.Truncated || r.Details.Stdout.FullOutputPath == "" {
		t.Fatalf("%+v", r.Details)
	}
	if len(r.Text) > 60<<10 {
		t.Errorf("text of %d bytes", len(r.Text))
	}
	// Wait until yes has written past the timeout's window: on a loaded
	// machine it may not have run at all between the two calls, and then
	// the kill's window is rightly empty. Its full output grows as
	// spillway reads it.
	spilled := func() int64 {
		st, err := os.Stat(r.Details.Stdout.FullOutputPath)
		if err != nil {
			return -1
		}
		return st.Size()
	}
	// On a quick machine yes fills the spill file to its cap (100 MiB)
	// within the timeout: then the file no longer grows, and the output
	// that goes on is in the windows only.
	before := spilled()
	bashUntil(t, "more output from yes", func() bool { n := spilled(); return n > before || n >= 100<<20 })
	k := bashKill(t, ts, r.Details.PID)
	if k.Details.Running || k.IsError || k.Details.Signal != "SIGTERM" || !strings.Contains(k.Text, "exit code: 143 (killed by SIGTERM)") {
		t.Errorf("%+v\n%s", k.Details, k.Text[max(0, len(k.Text)-300):])
	}
	if !strings.Contains(k.Text, "stdout:\ny\n") {
		t.Errorf("kill_pid shows no final output: %+v\n%q", k.Details.Stdout, k.Text[:min(len(k.Text), 400)])
	}
	if live := bashGroupMembers(r.Details.PID); len(live) > 0 {
		t.Errorf("live: %v", live)
	}
}

// A command that closes its stdout still reports stderr and its exit.
func TestBashClosedStdout(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "exec 1>&-; sleep 1; echo e >&2"})
	if r.Text != "stderr:\ne\n\nexit code: 0" || r.Details.Running {
		t.Errorf("%+v %q", r.Details, r.Text)
	}
}

// Close stops every job, whatever holds its output, and removes the spill
// directory.
func TestBashCloseKillsJobs(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	var pgids []int
	var firsts []spillway.Result[spillway.BashDetails]
	for _, in := range []spillway.BashInput{
		{Command: "seq 1 100000; sleep 30", RunInBackground: true},
		{Command: "echo a; sleep 30", Timeout: 100 * time.Millisecond},
		{Command: "sleep 30 & echo b"},
		{Command: "trap '' TERM; echo ready; sleep 30", RunInBackground: true},
	} {
		r := bashRun(t, ts, in)
		if !r.Details.Running {
			t.Fatalf("%+v", r.Details)
		}
		pgids = append(pgids, r.Details.PID)
		firsts = append(firsts, r)
	}
	r := bashRun(t, ts, spillway.BashInput{Command: "setsid sleep 30 & echo $!"})
	setsid, _ := strconv.Atoi(strings.TrimSpace(r.Content))
	if setsid = bashOuterPid(t, ts, setsid); setsid == 0 {
		t.Fatal("the setsid child is not running")
	}
	pgids = append(pgids, r.Details.PID)

	// A call still waiting when Close comes returns too.
	var wg sync.WaitGroup
	var waiting spillway.Result[spillway.BashDetails]
	mark := "SPILLWAY_WAITING=" + strconv.FormatInt(time.Now().UnixNano(), 10)
	wg.Go(func() {
		waiting = bashRun(t, ts, spillway.BashInput{Command: "sleep 30", Env: map[string]string{"SPILLWAY_WAITING": mark[len("SPILLWAY_WAITING="):]}})
	})
	for i := 0; len(bashMarked(mark)) == 0; i++ { // the call has started its command
		if i > 2000 {
			t.Fatal("the waiting call never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// What a check looks for may be in the first result already: the
	// checks after it show only what is new.
	bashWatch(t, ts, pgids[0], "the job with the big output to spill", func(_ string, c spillway.Result[spillway.BashDetails]) bool {
		return firsts[0].Details.Stdout.FullOutputPath != "" || c.Details.Stdout.FullOutputPath != ""
	})
	dir := ts.SpillDir()
	if dir == "" {
		t.Fatal("no spill directory")
	}
	// The job that ignores SIGTERM has set its trap: Close must escalate.
	bashWatch(t, ts, pgids[3], "the trap to be set", func(out string, _ spillway.Result[spillway.BashDetails]) bool {
		return strings.Contains(firsts[3].Content+out, "ready")
	})
	start := time.Now()
	if err := ts.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %v (one job ignores SIGTERM)", time.Since(start))
	wg.Wait()
	pgids = append(pgids, waiting.Details.PID)
	for _, pg := range pgids {
		if live := bashGroupMembers(pg); len(live) > 0 {
			t.Errorf("group %d: live members %v", pg, live)
		}
	}
	if bashAlive(setsid) {
		t.Errorf("setsid child %d survived Close", setsid)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("spill directory %s: %v", dir, err)
	}
	if !waiting.IsError || waiting.Details.Running {
		t.Errorf("waiting call: %+v %q", waiting.Details, waiting.Text)
	}
	_, err := ts.Bash(context.Background(), spillway.BashInput{Command: "true"})
	if !errors.Is(err, spillway.ErrClosed) || !strings.Contains(err.Error(), "session has ended") {
		t.Errorf("after Close: %v", err)
	}
	if _, err := ts.Read(context.Background(), spillway.ReadInput{Path: "x"}); !errors.Is(err, spillway.ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
}

// At most 64 jobs: the oldest finished is forgotten first; when all run,
// a new one is refused with the list of pids.
func TestBashJobLimit(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	first := bashRun(t, ts, spillway.BashInput{Command: "true", RunInBackground: true})
	for i := 1; i < 64; i++ {
		if r := bashRun(t, ts, spillway.BashInput{Command: "sleep 30", RunInBackground: true}); r.IsError {
			t.Fatalf("job %d: %q", i, r.Text)
		}
	}
	for bashCheck(t, ts, first.Details.PID).Details.Running {
		time.Sleep(5 * time.Millisecond)
	}
	r := bashRun(t, ts, spillway.BashInput{Command: "sleep 30", RunInBackground: true})
	if r.IsError {
		t.Fatalf("65th job with one finished: %q", r.Text)
	}
	if _, err := ts.CheckJob(context.Background(), spillway.CheckJobInput{PID: first.Details.PID}); err == nil || !strings.Contains(err.Error(), "known pids") {
		t.Errorf("the finished job was not forgotten: %v", err)
	}
	_, err := ts.Bash(context.Background(), spillway.BashInput{Command: "sleep 30", RunInBackground: true})
	if err == nil || !strings.Contains(err.Error(), "64 background jobs are running") || !strings.Contains(err.Error(), "kill_pid") {
		t.Errorf("66th job: %v", err)
	}
	// A command that must be backgrounded with no room is stopped and says so.
	r = bashRun(t, ts, spillway.BashInput{Command: "echo z; sleep 30", Timeout: 200 * time.Millisecond})
	if !r.IsError || r.Details.Running || !strings.Contains(r.Text, "Not kept in the background") {
		t.Errorf("timeout with a full table: %+v %q", r.Details, r.Text)
	}
	// Quick commands still run.
	if r := bashRun(t, ts, spillway.BashInput{Command: "echo ok"}); r.Content != "ok\n" {
		t.Errorf("quick command with a full table: %q", r.Text)
	}
}

// The progress callback gets bytes and lines about once a second.
func TestBashProgress(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	var mu sync.Mutex
	var seen []int64
	ctx := spillway.WithCallInfo(context.Background(), spillway.CallInfo{
		Progress: func(bytes, lines int64) {
			mu.Lock()
			seen = append(seen, bytes, lines)
			mu.Unlock()
		},
	})
	r, err := ts.Bash(ctx, spillway.BashInput{Command: "for i in 1 2 3; do echo line$i; echo err >&2; sleep 1; done"})
	if err != nil {
		t.Fatal(err)
	}
	if bashExit(r) != 0 {
		t.Fatal(r.Text)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 4 {
		t.Fatalf("progress calls: %v", seen)
	}
	for i := 2; i < len(seen); i += 2 {
		if seen[i] < seen[i-2] || seen[i+1] < seen[i-1] {
			t.Errorf("progress went back: %v", seen)
		}
	}
	if last := seen[len(seen)-2:]; last[0] < 10 || last[1] < 2 {
		t.Errorf("last progress %d bytes %d lines, want both streams counted", last[0], last[1])
	}
}

// Calls, checks and kills from many goroutines at once (run with -race).
func TestBashConcurrent(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 5 {
				want := fmt.Sprintf("%d-%d\n", g, i)
				r := bashRun(t, ts, spillway.BashInput{Command: "echo " + strings.TrimSpace(want)})
				if r.Content != want {
					t.Errorf("got %q want %q", r.Content, want)
				}
				bg := bashRun(t, ts, spillway.BashInput{Command: "seq 1 50000; sleep 30", RunInBackground: true})
				wg.Go(func() { bashCheck(t, ts, bg.Details.PID) })
				bashCheck(t, ts, bg.Details.PID)
				if k := bashKill(t, ts, bg.Details.PID); k.Details.Running {
					t.Errorf("kill: %+v", k.Details)
				}
			}
		})
	}
	wg.Wait()
}

// bashUntil waits for cond, which no check_pid can wait on.
func bashUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bashWaitGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", bashWaitGuard, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
