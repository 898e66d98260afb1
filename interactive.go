package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/tool"
)

// WriteStdinInput is what WriteStdin sends to a running job, and how
// long it waits for the answer: the write_stdin tool's parameters.
type WriteStdinInput = tool.WriteStdinInput

// writeStdinEntry declares the write_stdin tool: its parameters are the
// fields of WriteStdinInput, by their json tags.
var writeStdinEntry = entry{Tool: registry.Tool{
	Name:     "write_stdin",
	Title:    "Send input to a running command",
	MCPOnly:  true, // a one-shot command's job ends with it
	Describe: describe(describeWriteStdin),
}, run: handle((*Toolset).WriteStdin)}

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
func (t *Toolset) WriteStdin(ctx context.Context, in WriteStdinInput) (Result[BashDetails], error) {
	if err := check("write_stdin", &in); err != nil {
		return Result[BashDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[BashDetails]{}, toolError("write_stdin", err)
	}
	// A job the person holds in the console refuses the model before
	// anyone is asked about what it would type.
	if err := t.shell.HeldByPerson(in.PID); err != nil {
		return Result[BashDetails]{}, toolError("write_stdin", err)
	}
	if refused := t.decideStdin(ctx, in); refused != nil {
		return t.renderRefusal(*refused), nil
	}
	res, err := t.shell.Write(ctx, in)
	if err != nil {
		return Result[BashDetails]{}, toolError("write_stdin", err)
	}
	return t.renderBash(bashResult(res)), nil
}

// jobsEntry declares the jobs tool, which takes no parameters.
var jobsEntry = entry{Tool: registry.Tool{
	Name:     "jobs",
	Title:    "List background commands",
	ReadOnly: true,
	MCPOnly:  true, // a one-shot command's jobs end with it
	Describe: describe(describeJobs),
}, run: handle(func(t *Toolset, ctx context.Context, _ struct{}) (Result[JobsDetails], error) { return t.Jobs(ctx) })}

// A JobInfo is one background job in a jobs listing (tool.JobInfo).
type JobInfo = tool.JobInfo

// JobsDetails are the details of the jobs tool.
type JobsDetails struct {
	// Jobs are the background jobs, oldest first.
	Jobs []JobInfo `json:"jobs" doc:"The background commands, oldest first."`
	// Tokens is the estimate of the tokens of the result's text, as the
	// model reads it (output.EstimateTokens; it errs high).
	Tokens int `json:"tokens" doc:"Estimated tokens of the result's text as the model reads it (docs/tokens.md): counted on the high side, about 1.1–1.5 times what OpenAI's tokenizers count."`
}

// Jobs lists the session's background jobs, oldest first: those that
// CheckJob, WriteStdin and KillJob reach (at most 64; the oldest
// finished ones are forgotten first).
func (t *Toolset) Jobs(ctx context.Context) (Result[JobsDetails], error) {
	if err := t.open(); err != nil {
		return Result[JobsDetails]{}, err
	}
	d := JobsDetails{Jobs: t.shell.Jobs()}
	text := jobsText(d.Jobs)
	return Result[JobsDetails]{Text: t.finish(text, &d.Tokens, func() any { return d }), Details: d}, nil
}
