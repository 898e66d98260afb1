package spillway

import (
	"context"
	"fmt"
	"strings"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/shell"
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
	CLI:      registry.CLI{Instead: "to give a command its input, pipe it into spillway bash (printf 'y\\n' | spillway bash CMD)"},
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
	CLI:      registry.CLI{Instead: "a one-shot command's background jobs are stopped as it exits, so there are none to list; give spillway bash a longer --timeout to wait for a command"},
}, run: handle(func(t *Toolset, ctx context.Context, _ struct{}) (Result[JobsDetails], error) { return t.Jobs(ctx) })}

// A JobInfo is one background job in a jobs listing (tool.JobInfo).
type JobInfo = tool.JobInfo

// JobsDetails are the details of the jobs tool.
type JobsDetails struct {
	// Jobs are the background jobs, oldest first.
	Jobs []JobInfo `json:"jobs" doc:"The background commands, oldest first."`
	tool.TokenCount
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

// describeWriteStdin is write_stdin's description for the model: how input
// and named keys reach a background command and when the call returns.
func describeWriteStdin(Policy) string {
	return fmt.Sprintf("Send input to a background command started by `bash` with `tty: true` (a terminal) or "+
		"`stdin: true` (a pipe) — answer a prompt, drive a REPL — then return its new output, as `check_pid` does, "+
		"once it waits for input again, ends, its screen has been still for 100 ms, or `timeout` ms pass (default %d).\n\n"+
		"`input` is sent as typed (`\"yes\\n\"`: a newline is Enter). `keys` are named keys sent after it, in order: %s. "+
		"On a terminal Ctrl-C interrupts the program and Ctrl-D ends its input; on a pipe Ctrl-C sends SIGINT and Ctrl-D closes the pipe. "+
		"`close_stdin: true` ends the input after the rest (a pipe is closed so that `cat` or `sort` can finish; a terminal gets Ctrl-D). "+
		"With neither input nor keys it only waits for new output. A terminal echoes what you type, so the output shows your input too. "+
		"A full-screen program (less, vim, top, htop, fzf) shows its screen: `[screen COLS×ROWS, cursor at row R col C]`, then the rows; "+
		"a later look shows only the rows that changed, numbered, unless `screen: \"full\"`. `cols` and `rows` resize the terminal. "+
		"A command that waits for a secret (a password prompt: sudo, ssh, getpass) is answered by the person on spillway's page, never by you: "+
		"the result says so; `input` to it is refused unless `allow_model_secret: true` (only for a test secret you were given).",
		shell.DefaultWriteWait.Milliseconds(), strings.Join(shell.KeyNames(), ", "))
}

// describeJobs is jobs' description for the model: what it lists.
func describeJobs(Policy) string {
	return "List this session's background commands (those bash ran with `run_in_background`, moved to the " +
		"background after `timeout`, that wait for input, or whose children outlived them), oldest first: pid, state " +
		"(`running`, `waiting for input`, `waiting for secret`, which the person answers on spillway's page, `exited` with its exit code), run time, input (`tty`, `stdin`), command, and " +
		"for each stream its lines, size and the file that holds it whole. Use the pid with `check_pid`, `write_stdin` or `kill_pid`."
}
