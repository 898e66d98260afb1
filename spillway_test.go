package spillway_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// New checks what it is given: a policy a tool could not use, a bad Env,
// a cwd that is not a directory are errors that say what to fix, before
// any call.
func TestNewRefusesWhatCannotWork(t *testing.T) {
	dir := t.TempDir()
	bad := func(edit func(*spillway.Policy)) *spillway.Policy {
		p := spillway.DefaultPolicy()
		edit(&p)
		return &p
	}
	cases := []struct {
		name string
		opts spillway.Options
		want string
	}{
		{"zero policy", spillway.Options{Cwd: dir, Policy: &spillway.Policy{}}, "the policy cannot be used: shell is empty"},
		{"no timeout", spillway.Options{Cwd: dir, Policy: bad(func(p *spillway.Policy) { p.Timeout = 0 })}, "timeout_ms must be at least 1, not 0"},
		{"bad strategy", spillway.Options{Cwd: dir, Policy: bad(func(p *spillway.Policy) { p.Bash.Stderr.Strategy = "middle" })}, `bash.stderr.strategy "middle" is not a strategy`},
		{"no grep limit", spillway.Options{Cwd: dir, Policy: bad(func(p *spillway.Policy) { p.Grep.Limit = 0 })}, "grep.limit must be at least 1, not 0"},
		{"bad env", spillway.Options{Cwd: dir, Env: map[string]string{"A=B": "1"}}, "Options.Env"},
		{"cwd a file", spillway.Options{Cwd: "/etc/hostname"}, "is not a directory"},
		{"sandbox without root", spillway.Options{Cwd: dir, Sandbox: true}, "needs a root"},
	}
	for _, c := range cases {
		ts, err := spillway.New(c.opts)
		if err == nil {
			ts.Close()
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "spillway: ") {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// The policy's spill settings are the ones the toolset uses.
func TestNewUsesThePolicySpill(t *testing.T) {
	p := spillway.DefaultPolicy()
	p.Spill.Dir = t.TempDir()
	p.Spill.MaxBytes = 1000
	ts, err := spillway.New(spillway.Options{Cwd: t.TempDir(), Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "seq 1 100000"})
	if err != nil {
		t.Fatal(err)
	}
	out := res.Details.Stdout
	if !strings.HasPrefix(out.FullOutputPath, p.Spill.Dir) || !out.SpillCapped {
		t.Errorf("spill file %q capped %v, want one under %s capped at 1000 bytes", out.FullOutputPath, out.SpillCapped, p.Spill.Dir)
	}
}

// Every tool fails with ErrClosed after Close.
func TestCallsAfterClose(t *testing.T) {
	ts, err := spillway.New(spillway.Options{Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ts.Close()
	ctx := context.Background()
	calls := map[string]func() error{
		"bash":  func() error { _, err := ts.Bash(ctx, spillway.BashInput{Command: "true"}); return err },
		"check": func() error { _, err := ts.CheckJob(ctx, spillway.CheckJobInput{PID: 1}); return err },
		"kill":  func() error { _, err := ts.KillJob(ctx, spillway.KillJobInput{PID: 1}); return err },
		"read":  func() error { _, err := ts.Read(ctx, spillway.ReadInput{Path: "x"}); return err },
		"grep":  func() error { _, err := ts.Grep(ctx, spillway.GrepInput{Pattern: "x"}); return err },
		"find":  func() error { _, err := ts.Find(ctx, spillway.FindInput{Pattern: "x"}); return err },
		"ls":    func() error { _, err := ts.Ls(ctx, spillway.LsInput{}); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, spillway.ErrClosed) {
			t.Errorf("%s after Close: %v", name, err)
		}
	}
}
