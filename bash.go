package spillway

import (
	"context"
	"fmt"

	"github.com/spillway-dev/spillway/internal/shell"
)

// Types of the bash tool.
type (
	// BashInput is a command to run: Command, and how to run it
	// (Timeout, RunInBackground, Cwd, Env) and show it (MaxLines,
	// MaxBytes, FullOutput). Progress, when set, receives the bytes and
	// lines so far about once a second.
	BashInput = shell.Input
	// BashResult is what a bash call shows: Text for the model, Details,
	// the pure content of each stream (Stdout, Stderr: what was shown, no
	// notices), and IsError when the command did not succeed (non-zero
	// exit, cancelled).
	BashResult = shell.Result
	// BashDetails hold the exit code (nil while running), signal,
	// timed_out, backgrounded, running, pid, duration and, per stream,
	// its truncation and the spill file that holds it whole.
	BashDetails = shell.Details
	// StreamDetails describe one stream of a bash result.
	StreamDetails = shell.StreamDetails
	// BashProgress is what BashInput.Progress receives.
	BashProgress = shell.Progress
	// CheckJobInput names a background job (PID) to check.
	CheckJobInput = shell.CheckInput
	// KillJobInput names a background job (PID) to stop.
	KillJobInput = shell.KillInput
)

// Bash runs a command with `bash -c` (fresh shell, stdin /dev/null, own
// process group). A command still running after its timeout (default
// 120 s) is backgrounded, not killed: the result holds the output so far
// and the pid, for CheckJob and KillJob. Children that outlive the shell
// become a background job too, and the call returns within a second of
// the shell's exit. Cancelling ctx stops the command's whole process
// group (SIGTERM, SIGKILL after 2 s).
//
// The error says why the command could not be run (bad input, no such
// cwd, the shell missing, the toolset closed). A command that ran and
// failed is a result: its exit code is in Details, and IsError is set.
func (t *Toolset) Bash(ctx context.Context, in BashInput) (BashResult, error) {
	if err := t.open(); err != nil {
		return BashResult{}, bashError(err)
	}
	res, err := t.shell.Run(ctx, in)
	if err != nil {
		inputs := append(append([]string{in.Command, in.Cwd, in.Session}, in.Args...), envInputs(in.Env)...)
		return BashResult{}, clipError(bashError(err), inputs...)
	}
	return t.renderBash(res), nil
}

// CheckJob returns how a background job stands — running, or its exit
// code — and only its output since the last look. An unknown pid is an
// error that lists the known ones.
func (t *Toolset) CheckJob(ctx context.Context, in CheckJobInput) (BashResult, error) {
	if err := t.open(); err != nil {
		return BashResult{}, bashError(err)
	}
	res, err := t.shell.Check(ctx, in)
	if err != nil {
		return BashResult{}, bashError(err)
	}
	return t.renderBash(res), nil
}

// KillJob stops a background job — SIGTERM to its process group and to
// the processes that hold its output, SIGKILL after 2 s — and returns its
// last output. An unknown pid is an error that lists the known ones.
func (t *Toolset) KillJob(ctx context.Context, in KillJobInput) (BashResult, error) {
	if err := t.open(); err != nil {
		return BashResult{}, bashError(err)
	}
	res, err := t.shell.Kill(ctx, in)
	if err != nil {
		return BashResult{}, bashError(err)
	}
	return t.renderBash(res), nil
}

// bashError names the tool in an error, as every tool's errors do.
func bashError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("bash: %w", err)
}
