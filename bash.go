package spillway

import (
	"context"
	"time"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/rules"
	"github.com/spillway-dev/spillway/tool"
)

// BashInput is a command to run, how to run it and how much of its
// output to show: the bash tool's parameters (tool.BashInput).
type BashInput = tool.BashInput

// bashEntry declares the bash tool: its parameters are the fields of
// BashInput, by their json tags.
var bashEntry = entry{Tool: registry.Tool{
	Name:     "bash",
	Title:    "Run a shell command",
	Describe: describe(describeBash),
	Notes: "Give exactly one of `command` or of these: `check_pid` calls `Toolset.CheckJob` and takes `timeout`, `screen`.\n" +
		"`kill_pid` calls `Toolset.KillJob` and takes nothing else.\n",
}, run: handle((*Toolset).Bash), ceilings: map[string]func(Policy) int64{
	// The MCP server's bound on a call's wait bounds bash's timeout.
	"timeout": func(p Policy) int64 { return p.MaxWait.Milliseconds() },
}}

// CheckJobInput names a background job for CheckJob: the bash tool's
// check_pid, timeout and screen.
type CheckJobInput struct {
	// PID is the pid the job was given (BashDetails.PID).
	PID int
	// Timeout, when above zero, first waits up to that long (at most
	// 55 s) for output the job has not shown yet, or for its end: a wait
	// without polling. Zero returns at once, unless the job's screen is
	// being redrawn: then it waits, at most 1 s, until it has been still
	// for 100 ms.
	Timeout time.Duration
	// Screen, for a job whose program holds a terminal's screen, is
	// "full" for every row; "" or "changes" gives the rows changed since
	// the last look that showed it.
	Screen string
}

// KillJobInput names a background job for KillJob: the bash tool's
// kill_pid.
type KillJobInput struct {
	// PID is the pid the job was given (BashDetails.PID).
	PID int
}

// BashDetails are the structured details of a bash result
// (tool.BashDetails).
type BashDetails = tool.BashDetails

// SecretDetails describe the secret prompt a job waits at
// (tool.SecretDetails).
type SecretDetails = tool.SecretDetails

// A Failure is a line that looks like a failure among the lines a result
// cut (tool.Failure).
type Failure = tool.Failure

// StreamDetails describe one stream of a bash result (tool.StreamDetails).
type StreamDetails = tool.StreamDetails

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
//
// With CheckPID or KillPID instead of a command, Bash is CheckJob or
// KillJob: the bash tool's one input holds all three.
func (t *Toolset) Bash(ctx context.Context, in BashInput) (Result[BashDetails], error) {
	if err := check("bash", &in); err != nil {
		return Result[BashDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[BashDetails]{}, bashError(err)
	}
	switch {
	case in.CheckPID != 0:
		return t.checkJob(ctx, CheckJobInput{PID: in.CheckPID, Timeout: in.Timeout, Screen: in.Screen})
	case in.KillPID != 0:
		return t.killJob(ctx, KillJobInput{PID: in.KillPID})
	}
	// A command past a limit is refused before the rules parse it.
	if err := rules.Limit(in.Command); err != nil {
		return Result[BashDetails]{}, bashError(err)
	}
	if r, ok := t.codexPatchCall(ctx, in); ok {
		return r, nil
	}
	var decided *RulesDetails
	if t.rulesNow() != nil {
		var refused *Result[BashDetails]
		if decided, refused = t.decideBash(ctx, in); refused != nil {
			return t.renderRefusal(*refused), nil
		}
	}
	res, err := t.shell.Run(ctx, in)
	if err != nil {
		inputs := append(append([]string{in.Command, in.Cwd, in.Session}, in.Args...), envInputs(in.Env)...)
		return Result[BashDetails]{}, clipError(bashError(err), inputs...)
	}
	r := bashResult(res)
	r.Details.Rules = decided
	return t.renderBash(r), nil
}

// CheckJob returns how a background job stands — running, or its exit
// code — and only its output since the last look. An unknown pid is an
// error that lists the known ones.
func (t *Toolset) CheckJob(ctx context.Context, in CheckJobInput) (Result[BashDetails], error) {
	return t.Bash(ctx, BashInput{CheckPID: in.PID, Timeout: in.Timeout, Screen: in.Screen})
}

func (t *Toolset) checkJob(ctx context.Context, in CheckJobInput) (Result[BashDetails], error) {
	res, err := t.shell.Check(ctx, in.PID, in.Timeout, in.Screen)
	if err != nil {
		return Result[BashDetails]{}, bashError(err)
	}
	return t.renderBash(bashResult(res)), nil
}

// KillJob stops a background job — SIGTERM to its process group and to
// the processes that hold its output, SIGKILL after 2 s — and returns its
// last output. An unknown pid is an error that lists the known ones.
func (t *Toolset) KillJob(ctx context.Context, in KillJobInput) (Result[BashDetails], error) {
	return t.Bash(ctx, BashInput{KillPID: in.PID})
}

func (t *Toolset) killJob(ctx context.Context, in KillJobInput) (Result[BashDetails], error) {
	res, err := t.shell.Kill(ctx, in.PID)
	if err != nil {
		return Result[BashDetails]{}, bashError(err)
	}
	return t.renderBash(bashResult(res)), nil
}

// bashError names the tool in an error, as every tool's errors do.
func bashError(err error) error { return toolError("bash", err) }
