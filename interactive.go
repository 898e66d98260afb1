package spillway

import (
	"context"
	"fmt"

	"github.com/spillway-dev/spillway/internal/shell"
)

// WriteStdinInput is what WriteStdin sends to a running job: PID, the
// text (Input), named keys (Keys), CloseStdin, and how long to wait for
// the answer (Timeout).
type WriteStdinInput = shell.WriteInput

// WriteStdin sends input to a background job that was started with
// TTY (a terminal) or Stdin (a pipe): text, named keys ("Enter",
// "Ctrl-C", "Up" …) and, with CloseStdin, the end of its input. It then
// waits, at most Timeout (default 2 s), for the job's answer and returns
// its new output, as CheckJob does; the wait ends early when the job
// waits for input again or ends.
//
// The error says why nothing could be sent: an unknown pid, a job
// started without input, an unknown key, a job that no longer reads its
// input. Its output then stays for the next look.
func (t *Toolset) WriteStdin(ctx context.Context, in WriteStdinInput) (BashResult, error) {
	if err := t.open(); err != nil {
		return BashResult{}, fmt.Errorf("write_stdin: %w", err)
	}
	res, err := t.shell.Write(ctx, in)
	if err != nil {
		return BashResult{}, fmt.Errorf("write_stdin: %w", err)
	}
	return t.renderBash(res), nil
}

// The terminal of a TTY job: TERM=dumb, this fixed size.
const (
	TTYRows = shell.TTYRows
	TTYCols = shell.TTYCols
)

// DefaultWriteStdinWait is how long WriteStdin waits for an answer when
// Timeout is not given.
const DefaultWriteStdinWait = shell.DefaultWriteWait

// KeyNames lists the named keys WriteStdinInput.Keys takes.
func KeyNames() []string { return shell.KeyNames() }

// JobInfo is one background job in a jobs listing: pid, command, state
// (running, waiting for input, exited), exit code, input, run time, and
// the size and spill file of each stream.
type JobInfo = shell.JobInfo

// JobsInput is the input of the jobs tool, which takes no parameter.
type JobsInput struct{}

// JobsDetails are the details of the jobs tool.
type JobsDetails struct {
	Jobs []JobInfo `json:"jobs"`
	// Tokens is the estimate of the tokens of the result's text, as the
	// model reads it (output.EstimateTokens; it errs high).
	Tokens int `json:"tokens"`
}

// Jobs lists the session's background jobs, oldest first: those that
// CheckJob, WriteStdin and KillJob reach (at most 64; the oldest
// finished ones are forgotten first).
func (t *Toolset) Jobs() []JobInfo { return t.shell.Jobs() }

// JobsText renders a listing of the background jobs, as the jobs tool
// shows it.
func (t *Toolset) JobsText() (string, []JobInfo) {
	jobs := t.Jobs()
	return shell.JobsText(jobs), jobs
}
