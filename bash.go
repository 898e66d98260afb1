package spillway

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/rules"
	"github.com/spillway-dev/spillway/internal/shell"
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
	CLI: registry.CLI{
		Short: "Run a shell command and print its result as the model would get it",
		Long: `bash runs COMMAND with bash -c in its own process group and prints
stdout and stderr, each cut to fit its limits, with the exit code. Its
stdin is spillway's when that is not a terminal (echo y | spillway bash
'read x'), else /dev/null. What does not fit is kept whole in a file that
the notice names, under $TMPDIR/spillway-<uid>/cli/ (or, when others may
write in $TMPDIR, $XDG_RUNTIME_DIR/spillway/cli/ or ~/.cache/spillway/cli/).

A command still running after --timeout, or children it leaves running,
become a background job of the session. A one-shot command is a session of
its own that ends when the command returns, so such jobs are stopped then
(SIGTERM, SIGKILL after 2s): give a longer --timeout to wait for one.
check_pid, kill_pid, run_in_background, session and diff_with act on what
an earlier call of the same session left, and are MCP only (spillway mcp).`,
		Flags: map[string]string{
			"stdin":   "Pass spillway's own stdin to the command (a pipe or a file: printf 'y\\n' | spillway bash --stdin CMD); it is passed without --stdin too when it is not a terminal",
			"timeout": "Milliseconds the command may run (120000 unless given; at least 1; more is held to 2147483647); past it spillway stops the command and exits 124",
			"tty":     "Run the command on a terminal, for programs that need one (colours, progress bars, full-screen programs); the CLI cannot type into it, so a program that waits for input there is stopped (exit 124)",
		},
		Example: `  spillway bash 'seq 1 100000'
  spillway bash --timeout 5000 'make test'
  spillway bash --env GOFLAGS=-count=1 --cwd ./sub 'go test ./...'`,
		// The command's own status, as timeout(1) gives it.
		ExitStatus: `Exit status: the command's own (128+N when signal N killed it); 124 when
spillway stopped it, at --timeout or while it waited for input (a one-shot
command cannot keep a background job); 2 for bad usage; 1 when it did not
run (a rule held it, it could not start). A command's own 2 or 124 looks
the same: --json gives the exact exit_code, timed_out and
waiting_for_input, and its is_error is true exactly when the status is
not 0.`,
	},
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

// describeBash is bash's description for the model under p: what it does, the
// limits p puts on it and how to get at what it cut.
func describeBash(p Policy) string {
	out := p.Bash.Stdout
	streams := "stdout and stderr are shown apart, each cut"
	if p.Bash.MergeStreams {
		streams = "stdout and stderr are merged in order of arrival and cut"
	}
	var d strings.Builder
	fmt.Fprintf(&d, "Run a shell command (`%s -c COMMAND`) in a fresh process: nothing carries over between calls, "+
		"so use `cwd` and `env` (or `cd DIR && ...`) instead of relying on earlier calls, or name a `session`: the calls "+
		"of one session keep the working directory and the exported variables that the previous one left (a `cd` or "+
		"`export` holds for the next call). stdin is /dev/null; "+
		"colours, pagers and interactive prompts are off. For a program that needs input (a prompt, a REPL, `npm init`), "+
		"pass `tty: true` to run it on a terminal (%d×%d by default, TERM=xterm-256color; stdout and stderr arrive as one stream; "+
		"while a full-screen program such as less, vim or top holds the screen, results show the screen, later ones only its changed rows) or "+
		"`stdin: true` to give it a pipe; when it waits for input the call returns early saying so, and `write_stdin` "+
		"answers it. Prefer non-interactive flags (`-y`, `--batch`, `-b -n 1`) when a program has them.\n\n", p.Shell, shell.TTYCols, shell.TTYRows)
	fmt.Fprintf(&d, "Output: %s to %d lines or %s%s, whichever comes first (%s). "+
		"%s%s Pass `max_lines`/`max_bytes`/`max_tokens` to change the limits for one call, "+
		"or `full_output: true` to get everything inline (up to %s and %s lines a stream) when you really need it.\n\n",
		streams, out.MaxLines, size(out.MaxBytes), tokenCap(" or", out.MaxTokens), strategyText(out), lineCap("Lines over %d chars are shortened. ", out.MaxLineChars),
		spillHowTo, size(streamCeiling), thousands(linesCeiling))
	if p.Bash.Shapes {
		d.WriteString("When the lines cut are mostly log lines of a few shapes (lines that differ only in numbers, ids or spacing), " +
			"the result shows only the lines that tell something: the first and last ones, and between them the failures and the " +
			"rare lines, numbered `N: text` as in the full output, with one line per shape for the rest: its count, its line range and " +
			"the `grep` pattern that lists its lines. Passing `max_lines`, `max_bytes` or `max_tokens` shows the first and last lines instead.\n\n")
	}
	if p.ResultBudget > 0 {
		fmt.Fprintf(&d, "The whole result (both streams, notices and all) fits %d characters: when both streams are long they share that, "+
			"and a stream that needs less leaves the rest to the other (`max_bytes` or `full_output` lift it for one call).\n\n", p.ResultBudget)
	}
	bound := ""
	if p.MaxWait > 0 {
		bound = fmt.Sprintf(", at most %d", p.MaxWait.Milliseconds())
	}
	fmt.Fprintf(&d, "Long-running commands: after `timeout` ms (default %d%s) the command is NOT killed: it moves to the "+
		"background and the result gives its pid and the output so far. Start servers, watchers and anything that "+
		"never ends with `run_in_background: true`, which returns the pid at once. Then:\n"+
		"- `check_pid: PID` returns whether it still runs, its exit code once done, and only the output that is new "+
		"since the last check; with `timeout` (ms) it first waits until there is new output or the command ends, "+
		"so wait with `check_pid` and `timeout` instead of sleeping in a command;\n"+
		"- `kill_pid: PID` stops it (SIGTERM to its process group, SIGKILL after 2 s) and returns its last output.\n"+
		"Give exactly one of `command`, `check_pid`, `kill_pid`. A command that leaves a child running "+
		"(`server &`) returns when the shell exits; the child becomes a background job with a pid you can check or kill.\n\n",
		p.Timeout.Milliseconds(), bound)
	d.WriteString("The text ends with `exit code: N`; a non-zero exit is reported as an error.")
	return d.String()
}
