package spillway_test

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// Helpers of the bash tests: a toolset per test, and what /proc says of
// the processes a command left.

// bashToolset returns a toolset in a temporary directory, closed when the
// test ends, with a spill directory of its own.
func bashToolset(t testing.TB, opts spillway.Options) *spillway.Toolset {
	t.Helper()
	if opts.Cwd == "" {
		opts.Cwd = t.TempDir()
	}
	if opts.Policy == nil {
		p := spillway.DefaultPolicy()
		opts.Policy = &p
	}
	if opts.Policy.Spill.Dir == "" {
		opts.Policy.Spill.Dir = t.TempDir()
	}
	if mode := os.Getenv(sandboxSuiteEnv); mode != "" && opts.Root == "" {
		opts.Root, opts.Sandbox, opts.NoNetwork = opts.Cwd, true, mode == "no-network"
	}
	ts, err := spillway.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	return ts
}

// bashRun runs a command with a generous guard against hangs; the call
// must be made (the command itself may fail).
func bashRun(t testing.TB, ts *spillway.Toolset, in spillway.BashInput) spillway.Result[spillway.BashDetails] {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := ts.Bash(ctx, in)
	if err != nil {
		t.Fatalf("bash %q: %v", in.Command, err)
	}
	return res
}

// bashCheck checks a background job, which must exist.
func bashCheck(t testing.TB, ts *spillway.Toolset, pid int) spillway.Result[spillway.BashDetails] {
	t.Helper()
	res, err := ts.CheckJob(context.Background(), spillway.CheckJobInput{PID: pid})
	if err != nil {
		t.Fatalf("check job %d: %v", pid, err)
	}
	return res
}

// bashKill stops a background job, which must exist.
func bashKill(t testing.TB, ts *spillway.Toolset, pid int) spillway.Result[spillway.BashDetails] {
	t.Helper()
	res, err := ts.KillJob(context.Background(), spillway.KillJobInput{PID: pid})
	if err != nil {
		t.Fatalf("kill job %d: %v", pid, err)
	}
	return res
}

// bashStat reads state and process group of pid from /proc.
func bashStat(pid int) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 {
		return 0, 0, false
	}
	pgrp, _ = strconv.Atoi(string(f[2]))
	return f[0][0], pgrp, true
}

// bashAlive reports whether pid is a live process (not a zombie).
func bashAlive(pid int) bool {
	st, _, ok := bashStat(pid)
	return ok && st != 'Z' && st != 'X'
}

// bashPids lists the pids in /proc.
func bashPids() []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// bashGroupMembers lists the live (non-zombie) members of process group
// pgid.
func bashGroupMembers(pgid int) []int {
	if pgid <= 0 {
		return []int{-1} // no process group was named: a failure too
	}
	var live []int
	for _, pid := range bashPids() {
		st, pg, ok := bashStat(pid)
		if ok && pg == pgid && st != 'Z' && st != 'X' {
			live = append(live, pid)
		}
	}
	return live
}

// bashMarked lists the live processes whose environment holds mark: every
// process a command of a toolset with that env var started, wherever it
// went (other process group, other session).
func bashMarked(mark string) []int {
	needle := []byte("\x00" + mark + "\x00")
	var pids []int
	for _, pid := range bashPids() {
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err != nil || !bytes.Contains(append([]byte{0}, env...), needle) {
			continue
		}
		if bashAlive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// bashExit returns the exit code of a result, or -1 when it is null.
func bashExit(r spillway.Result[spillway.BashDetails]) int {
	if r.Details.ExitCode == nil {
		return -1
	}
	return *r.Details.ExitCode
}

// bashOuterPid returns the pid, as this process sees it, of the process
// that a command of ts saw as inner ($!): the same number unsandboxed,
// another one in the PID namespace of ts's sandbox (which a command of ts
// names; the job's own shell may be gone). 0 when there is none.
func bashOuterPid(t testing.TB, ts *spillway.Toolset, inner int) int {
	t.Helper()
	ns := strings.TrimSpace(bashRun(t, ts, spillway.BashInput{Command: "readlink /proc/self/ns/pid"}).Content)
	if self, _ := os.Readlink("/proc/self/ns/pid"); ns == "" || ns == self {
		return inner
	}
	for _, pid := range bashPids() {
		if l, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid"); l != ns {
			continue
		}
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) > 2 && f[0] == "NSpid:" && f[len(f)-1] == strconv.Itoa(inner) {
				return pid
			}
		}
	}
	return 0
}

// headTailPolicy is the default policy with its digests off: for the
// tests of the head and tail view that a cut stream of few shapes would
// otherwise be shown as a digest instead of.
func headTailPolicy() *spillway.Policy {
	p := spillway.DefaultPolicy()
	p.Bash.Shapes = false
	return &p
}

// bashWaitGuard bounds a wait for something a loaded machine only makes
// slow.
const bashWaitGuard = 60 * time.Second

// bashWatch checks a background job until cond holds of the output
// gathered over the checks (each check returns only what is new) and the
// last check, and returns both. Each check waits for new output or the
// job's end (check_pid's timeout), so nothing polls faster than the job
// writes.
func bashWatch(t *testing.T, ts *spillway.Toolset, pid int, what string, cond func(out string, last spillway.Result[spillway.BashDetails]) bool) (string, spillway.Result[spillway.BashDetails]) {
	t.Helper()
	var out strings.Builder
	deadline := time.Now().Add(bashWaitGuard)
	for {
		c, err := ts.CheckJob(context.Background(), spillway.CheckJobInput{PID: pid, Timeout: 200 * time.Millisecond})
		if err != nil {
			t.Fatalf("check job %d: %v", pid, err)
		}
		out.WriteString(c.Content)
		if cond(out.String(), c) {
			return out.String(), c
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s; output so far %q, last check %+v", bashWaitGuard, what, out.String(), c.Details)
		}
	}
}
