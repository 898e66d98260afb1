//go:build unix

package shell

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/tool"
)

// Tests of what a command's result shows: its text, its limits and its
// spill files. The process lifecycle is tested through the library API
// in the module root (bash_test.go), where the same tests also run under
// the sandbox.

// testRunner returns a Runner configured by cfg with a spill store of its
// own configured by sc, both closed when the test ends.
func testRunner(t *testing.T, cfg Config, sc spill.Config) *Runner {
	t.Helper()
	sc.TempDir = t.TempDir()
	store := spill.NewSession(sc)
	cfg.Spill = store
	r := NewRunner(cfg)
	t.Cleanup(func() {
		r.Close()
		store.Close()
	})
	return r
}

// runOK runs a command with a generous guard against hangs; the call
// must be made (the command itself may fail).
func runOK(t *testing.T, r *Runner, in tool.BashInput) Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := r.Run(ctx, in)
	if err != nil {
		t.Fatalf("run %q: %v", in.Command, err)
	}
	return res
}

// exitOf returns the exit code of a result, -1 while the command runs.
func exitOf(res Outcome) int {
	if res.Details.ExitCode == nil {
		return -1
	}
	return *res.Details.ExitCode
}

// What each command's outcome says of it; the text the root lays out of
// it is tested there (TestBashText).
func TestRunOutcome(t *testing.T) {
	r := testRunner(t, defaultConfig(t), defaultStore())
	cases := []struct {
		command        string
		stdout, stderr string
		exit           int
	}{
		{"echo out; echo err >&2; exit 1", "out\n", "err\n", 1},
		{"echo out", "out\n", "", 0},
		{"true", "", "", 0},
		{"printf '\\033[31mred\\033[0m\\n10%%\\r20%%\\r30%%\\n'", "red\n30%\n", "", 0},
		{"exit 300", "", "", 44},
	}
	for _, c := range cases {
		res := runOK(t, r, tool.BashInput{Command: c.command})
		if res.Stdout.Text() != c.stdout || res.Stderr.Text() != c.stderr || exitOf(res) != c.exit || res.Failed != (c.exit != 0) {
			t.Errorf("%q: stdout %q stderr %q exit %d (failed %v)", c.command, res.Stdout.Text(), res.Stderr.Text(), exitOf(res), res.Failed)
		}
		if res.Details.Running || res.Details.Backgrounded || res.Details.TimedOut || res.Details.PID <= 0 || res.Details.ExitCode == nil {
			t.Errorf("%q: details %+v", c.command, res.Details)
		}
	}
	res := runOK(t, r, tool.BashInput{Command: "kill -KILL $$"})
	if res.Details.Signal != "SIGKILL" || exitOf(res) != 137 {
		t.Errorf("killed shell: signal %q exit %d", res.Details.Signal, exitOf(res))
	}
	res = runOK(t, r, tool.BashInput{Command: "echo out; echo err >&2"})
	if res.Stdout.Text() != "out\n" || res.Stderr.Text() != "err\n" {
		t.Errorf("pure content: stdout %q stderr %q", res.Stdout.Text(), res.Stderr.Text())
	}
}

func TestRunLimits(t *testing.T) {
	r := testRunner(t, defaultConfig(t), defaultStore())
	res := runOK(t, r, tool.BashInput{Command: "seq 1 5000", MaxLines: 10})
	tr := res.Stdout.Truncation
	if !tr.Truncated || tr.TruncatedBy != "lines" || tr.OutputLines > 10 || tr.TotalLines != 5000 {
		t.Errorf("max_lines 10: %+v", tr)
	}
	if res.Stdout.FullOutputPath == "" || !strings.Contains(res.Text, "Full output: "+res.Stdout.FullOutputPath) {
		t.Errorf("no spill file named: %q", res.Text)
	}
	res = runOK(t, r, tool.BashInput{Command: "seq 1 100000", MaxBytes: 1000})
	if tr := res.Stdout.Truncation; tr.TruncatedBy != "bytes" || tr.OutputBytes > 1000 {
		t.Errorf("max_bytes 1000: %+v", tr)
	}
	res = runOK(t, r, tool.BashInput{Command: "seq 1 100000", FullOutput: true})
	if tr := res.Stdout.Truncation; tr.Truncated || tr.OutputLines != 100000 {
		t.Errorf("full_output: %+v", tr)
	}
	// full_output stops at the 1 MiB ceiling: seq 1 200000 is 1.2 MB.
	res = runOK(t, r, tool.BashInput{Command: "seq 1 200000", FullOutput: true})
	if tr := res.Stdout.Truncation; !tr.Truncated || tr.OutputBytes > policy.StreamCeiling {
		t.Errorf("full_output past the ceiling: %+v", tr)
	}
	// Each stream has its own limits and its own spill file.
	res = runOK(t, r, tool.BashInput{Command: "seq 1 3000; seq 1 3000 >&2"})
	o, e := res.Stdout, *res.Stderr
	if !o.Truncation.Truncated || !e.Truncation.Truncated || o.FullOutputPath == e.FullOutputPath ||
		!strings.HasSuffix(o.FullOutputPath, "-stdout.log") || !strings.HasSuffix(e.FullOutputPath, "-stderr.log") {
		t.Errorf("two streams: %+v %+v", o, e)
	}
}

func TestRunBinaryStream(t *testing.T) {
	r := testRunner(t, defaultConfig(t), defaultStore())
	res := runOK(t, r, tool.BashInput{Command: "head -c 20000 /dev/urandom; printf '\\0'"})
	if !res.Stdout.Binary || !strings.Contains(res.Text, "[binary output: 20001 bytes. Full output: ") {
		t.Fatalf("binary: %q", res.Text)
	}
	if fi, err := os.Stat(res.Stdout.FullOutputPath); err != nil || fi.Size() != 20001 {
		t.Errorf("binary spill: %v %v", fi, err)
	}
}

func TestRunMergedStreams(t *testing.T) {
	cfg := defaultConfig(t)
	cfg.Bash.MergeStreams = true
	r := testRunner(t, cfg, defaultStore())
	res := runOK(t, r, tool.BashInput{Command: "echo a; echo b >&2; echo c"})
	if res.Stdout.Text() != "a\nb\nc\n" || res.Stderr != nil {
		t.Errorf("merged: stdout %q, stderr %v", res.Stdout.Text(), res.Stderr)
	}
}
