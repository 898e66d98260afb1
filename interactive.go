package spillway

import (
	"context"
	"time"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/tool"
)

// WriteStdinInput is what WriteStdin sends to a running job, and how
// long it waits for the answer: the write_stdin tool's parameters, named
// by their json tags (docs/tools.md gives defaults and bounds).
type WriteStdinInput struct {
	// PID is the job's pid (BashDetails.PID).
	PID int `json:"pid" param:"required" min:"1" doc:"Pid of the background command, as bash returned it."`
	// Input is text sent as it is, before Keys. On a terminal a "\n" is
	// sent as Enter ("\r"), as a keyboard does.
	Input string `json:"input,omitempty" doc:"Text to send as typed; a newline is Enter."`
	// Keys are named keys sent after Input, in order: "Enter", "Tab",
	// "Esc", "Up", "Ctrl-C", "Ctrl-D" … (KeyNames lists them).
	Keys []string `json:"keys,omitempty" doc:"Named keys to send after input, e.g. [\"Enter\"], [\"Ctrl-C\"], [\"Up\", \"Enter\"]."`
	// CloseStdin ends the input after Input and Keys: a stdin pipe is
	// closed, so the job reads end of file; a terminal gets Ctrl-D.
	CloseStdin bool `json:"close_stdin,omitempty" doc:"End the command's input after sending the rest (end of file)."`
	// AllowModelSecret lets Input reach a job that waits for a secret
	// (BashDetails.WaitsSecret), which is refused otherwise: a secret
	// typed by the model passes through its context, its client's
	// transcript and its provider. Set it only for a test secret the
	// model was given; a person answers a real one on the page
	// BashDetails.Secret names.
	AllowModelSecret bool `json:"allow_model_secret,omitempty" doc:"Send input to a command that waits for a secret (a password prompt; its terminal does not echo). Without it such input is refused: the user answers on the page the result names. Only for a test secret you were given."`
	// Timeout is how long to wait for the job's answer; zero is
	// DefaultWriteStdinWait, and at most 55 s is waited. The call returns
	// earlier when the job waits for input again or ends, or when the
	// screen its program holds has been still for 100 ms.
	Timeout time.Duration `json:"timeout,omitempty" min:"1" ceiling:"check_wait_ms" default:"write_wait_ms" doc:"Most milliseconds to wait for the answer; the call returns as soon as the command waits for input again or ends, or its screen has been still for 100 ms."`
	// Cols and Rows, when above zero, resize the job's terminal first:
	// the program gets SIGWINCH and redraws.
	Cols int `json:"cols,omitempty" min:"min_cols" max:"max_cols" doc:"Resize the command's terminal to this many columns (it gets SIGWINCH and redraws)."`
	Rows int `json:"rows,omitempty" min:"min_rows" max:"max_rows" doc:"Resize the command's terminal to this many rows (it gets SIGWINCH and redraws)."`
	// Screen is CheckJobInput.Screen.
	Screen string `json:"screen,omitempty" enum:"changes,full" default:"changes" doc:"For a program that holds a terminal's screen: \"changes\" shows the rows changed since the last look, numbered; \"full\" shows every row."`
}

// writeStdinEntry declares the write_stdin tool: its parameters are the
// fields of WriteStdinInput, by their json tags.
var writeStdinEntry = entry{Tool: registry.Tool{
	Name:     "write_stdin",
	Title:    "Send input to a running command",
	MCPOnly:  true, // a one-shot command's job ends with it
	Describe: describe(describeWriteStdin),
}, run: handlers{registry.Run: handle((*Toolset).WriteStdin)}}

// send is the shell's request for the call.
func (in WriteStdinInput) send() shell.Send {
	return shell.Send{
		PID: in.PID, Text: in.Input, Keys: in.Keys, Close: in.CloseStdin, AllowSecret: in.AllowModelSecret,
		Wait: in.Timeout, Resize: shell.TermSize{Cols: in.Cols, Rows: in.Rows}, Screen: in.Screen,
	}
}

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
	if err := t.open(); err != nil {
		return Result[BashDetails]{}, toolError("write_stdin", err)
	}
	res, err := t.shell.Write(ctx, in.send())
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
}, run: handlers{registry.Run: handle(func(t *Toolset, ctx context.Context, _ struct{}) (Result[JobsDetails], error) { return t.Jobs(ctx) })}}

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
