package tool

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spillway-dev/spillway/output"
)

// BashInput is a command to run, how to run it and how much of its
// output to show. Its fields are the bash tool's parameters, named by
// their json tags; docs/tools.md gives each one's default and bounds
// under every profile.
type BashInput struct {
	// Command is run with `bash -c` in a fresh shell: nothing carries over
	// from earlier calls unless Session names a session. With Args it is
	// the program to run, without a shell.
	Command string `json:"command,omitempty" cli:"positional" doc:"The command, run with \x60bash -c\x60; with \x60args\x60, the program to run. Omit it when you give check_pid or kill_pid."`
	// Args, when given, run Command as a program with these arguments,
	// without a shell: spaces, quotes and '$' in them reach it as they are.
	Args []string `json:"args,omitempty" doc:"Run \x60command\x60 as a program with these arguments, without a shell: spaces, quotes and \x60$\x60 reach it as they are."`
	// Session names a session (letters, digits, '.', '_', '-') whose
	// working directory and exported variables carry over from call to
	// call; it is made by the first call that names it. "" runs the
	// command in a shell that keeps nothing.
	Session string `json:"session,omitempty" cli:"session" doc:"Name of a session (letters, digits, \x60.\x60, \x60_\x60, \x60-\x60): its working directory and exported variables carry over from call to call. Made on first use."`
	// Timeout is how long the call waits before the command moves to the
	// background, where it keeps running (CheckJob and KillJob reach it by
	// Details.PID). Zero takes the policy's, 120 s by default.
	//
	// With CheckPID, Timeout, when above zero, first waits up to that
	// long (at most 55 s) for output the job has not shown yet, or for its
	// end: a wait without polling. Zero returns at once, unless the job's
	// screen is being redrawn: then it waits, at most 1 s, until it has
	// been still for 100 ms.
	Timeout time.Duration `json:"timeout,omitempty" min:"1" ceiling:"int32" default:"timeout_ms" doc:"Milliseconds to wait before the command moves to the background (it keeps running). With check_pid: milliseconds to wait for new output or the end before returning (without it, check_pid returns at once)."`
	// RunInBackground starts the command and returns its pid at once: for
	// servers, watchers and other commands that do not end.
	RunInBackground bool `json:"run_in_background,omitempty" cli:"session" doc:"Start the command and return its pid at once, for servers, watchers and other commands that do not end."`
	// Cwd is the command's working directory, relative to the session's
	// (the toolset's Cwd without a session). "" is the session's.
	Cwd string `json:"cwd,omitempty" doc:"Working directory of the command (default: the session's)."`
	// Env holds environment variables added to the toolset's for this
	// command.
	Env map[string]string `json:"env,omitempty" doc:"Extra environment variables, e.g. {\"CI\": \"1\"}."`
	// MaxLines and MaxBytes bound each stream shown, for this call; zero
	// takes the policy's (2000 lines and 50 KiB by default). Larger values
	// are held to 100,000 lines and 1 MiB.
	MaxLines int `json:"max_lines,omitempty" min:"1" ceiling:"lines" default:"bash.max_lines" doc:"Most lines shown per stream for this call."`
	MaxBytes int `json:"max_bytes,omitempty" min:"1" ceiling:"stream" default:"bash.max_bytes" doc:"Most bytes shown per stream for this call."`
	// MaxTokens, when above zero, also bounds each stream shown to that
	// many estimated tokens (output.EstimateTokens, which errs high);
	// zero takes the policy's, none by default.
	MaxTokens int `json:"max_tokens,omitempty" min:"1" ceiling:"stream" default:"bash.max_tokens" doc:"Most tokens shown per stream for this call, as spillway estimates them (on the high side: about 1.3 times what OpenAI's tokenizers count for code and logs), beside the line and byte limits."`
	// FullOutput shows each stream whole, up to 1 MiB and 100,000 lines.
	FullOutput bool `json:"full_output,omitempty" doc:"Show each stream whole, up to the hard ceilings of 1.0MB and 100,000 lines a stream. Prefer reading the spill file a notice names."`
	// CheckPID, instead of a command, looks at the background job with
	// that pid (BashDetails.PID): how it stands, and only its output
	// since the last look (Toolset.CheckJob).
	CheckPID int `json:"check_pid,omitempty" cli:"session" min:"1" doc:"Pid of a background command: return its status and the output that is new since the last check."`
	// KillPID, instead of a command, stops the background job with that
	// pid and returns its last output (Toolset.KillJob).
	KillPID int `json:"kill_pid,omitempty" cli:"session" min:"1" doc:"Pid of a background command: stop its process group and return its last output."`
	// TTY runs the command on a pseudo-terminal of Cols by Rows,
	// TERM=xterm-256color: interactive programs prompt, REPLs start and
	// full-screen programs draw. stdout and stderr arrive as one stream,
	// in stdout; while a program holds the screen (the alternate screen,
	// or one it cleared and drew on), the result shows the screen
	// instead (docs/interactive.md). WriteStdin sends the input.
	TTY bool `json:"tty,omitempty" doc:"Run the command on a terminal (TERM=xterm-256color), for interactive and full-screen programs (prompts, REPLs, less, vim, top); send input with write_stdin. While a program holds the screen, results show the screen."`
	// Cols and Rows are the size of the terminal (TTY only); zero is
	// TTYCols, TTYRows.
	Cols int `json:"cols,omitempty" min:"min_cols" max:"max_cols" default:"tty_cols" doc:"Columns of the terminal, with tty."`
	Rows int `json:"rows,omitempty" min:"min_rows" max:"max_rows" default:"tty_rows" doc:"Rows of the terminal, with tty."`
	// Screen, with CheckPID, for a job whose program holds a terminal's
	// screen, is "full" for every row; "" or "changes" gives the rows
	// changed since the last look that showed it.
	Screen string `json:"screen,omitempty" cli:"session" enum:"changes,full" default:"changes" doc:"With check_pid, for a program that holds a terminal's screen: \"changes\" shows the rows changed since the last look, numbered; \"full\" shows every row."`
	// Stdin gives the command a pipe as stdin instead of /dev/null;
	// WriteStdin writes to it and closes it.
	Stdin bool `json:"stdin,omitempty" doc:"Give the command a pipe as stdin instead of /dev/null; write to it and close it with write_stdin."`
	// DiffWith, when set, runs the command and then shows, instead of its
	// output, what changed since an earlier run: a unified diff of each
	// stream ("-" the earlier run, "+" this one), cut and spilled like any
	// output, and both exit codes. It is the HistoryID of an earlier call
	// (as a decimal string) or "last", the last run of the same command.
	DiffWith RunRef `json:"diff_with,omitempty" cli:"session" doc:"Run the command, then show what changed since an earlier run instead of its output: a unified diff of each stream (\x60-\x60 the earlier run, \x60+\x60 this one) and both exit codes. Give the history_id of an earlier call (e.g. \"3\") or \"last\" for the last run of the same command."`
}

// A RunRef names an earlier run of a command: the HistoryID of an
// earlier call as a decimal string ("3"), or "last" for the last run of
// the same command. From JSON it takes the id as a number too (3), as a
// model may send it.
type RunRef string

// UnmarshalJSON takes a string, or an integer as its decimal string.
func (r *RunRef) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] != '"' {
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return errors.New("want a history id or \"last\"")
		}
		*r = RunRef(n)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errors.New("want a history id or \"last\"")
	}
	*r = RunRef(s)
	return nil
}

// Validate is bash's own check, beside its fields' bounds: a call runs a
// command, or looks at a background job (CheckPID), or stops one
// (KillPID); a look takes Timeout and Screen beside the pid, a stop
// nothing else, and a command no Screen, nor Cols and Rows without TTY.
func (in BashInput) Validate() error {
	calls := 0
	for _, given := range []bool{in.Command != "", in.CheckPID != 0, in.KillPID != 0} {
		if given {
			calls++
		}
	}
	if calls != 1 {
		return errors.New("give exactly one of command (to run), check_pid or kill_pid (to manage a background command)")
	}
	switch {
	case in.CheckPID != 0:
		if extra := in.given("timeout", "screen"); len(extra) > 0 {
			return fmt.Errorf("check_pid takes only timeout, screen (got %s)", strings.Join(extra, ", "))
		}
	case in.KillPID != 0:
		if extra := in.given(); len(extra) > 0 {
			return fmt.Errorf("kill_pid takes no other parameter (got %s)", strings.Join(extra, ", "))
		}
	case in.Screen != "":
		return errors.New("screen go with check_pid or kill_pid: give it, or leave them out")
	case (in.Cols != 0 || in.Rows != 0) && !in.TTY:
		return errors.New("cols and rows are the size of a terminal: give tty: true with them, or leave them out")
	}
	return nil
}

// given names the parameters of a command that in gives, in their order,
// but those of except.
func (in BashInput) given(except ...string) []string {
	var names []string
	for _, p := range []struct {
		name string
		set  bool
	}{
		{"command", in.Command != ""}, {"args", len(in.Args) > 0}, {"session", in.Session != ""},
		{"timeout", in.Timeout != 0}, {"run_in_background", in.RunInBackground}, {"cwd", in.Cwd != ""},
		{"env", len(in.Env) > 0}, {"max_lines", in.MaxLines != 0}, {"max_bytes", in.MaxBytes != 0},
		{"max_tokens", in.MaxTokens != 0}, {"full_output", in.FullOutput}, {"tty", in.TTY},
		{"cols", in.Cols != 0}, {"rows", in.Rows != 0}, {"screen", in.Screen != ""},
		{"stdin", in.Stdin}, {"diff_with", in.DiffWith != ""},
	} {
		if p.set && !slices.Contains(except, p.name) {
			names = append(names, p.name)
		}
	}
	return names
}

// BashDetails are the structured details of a bash result.
// docs/tools.md describes each field as the tools return it.
type BashDetails struct {
	// ExitCode is the shell's exit code (128+N when signal N killed it);
	// nil while the shell runs.
	ExitCode *int `json:"exit_code" doc:"Exit code of the command; null while it runs."`
	// Signal names the signal that killed the shell ("SIGKILL"), if one
	// did.
	Signal string `json:"signal,omitempty" doc:"Signal that killed the command, if any."`
	// TimedOut: the command outlived its timeout and moved to the
	// background.
	TimedOut bool `json:"timed_out" doc:"The timeout passed and the command moved to the background."`
	// Backgrounded: the command, or processes it left behind, go on as a
	// background job that CheckJob and KillJob reach by PID.
	Backgrounded bool `json:"backgrounded" doc:"The command runs on as a background job: use check_pid or kill_pid with pid."`
	// Running: the job still has live processes or open output. It can be
	// true beside an exit code: the shell exited but children it started
	// still run.
	Running bool `json:"running" doc:"The command (or a child it left) is still running."`
	// Waiting: the job seems to wait for input (a prompt, a REPL): one of
	// its processes is blocked reading the terminal or pipe WriteStdin
	// writes to, and it has written nothing for a moment.
	Waiting bool `json:"waiting_for_input,omitempty" doc:"The command seems to wait for input (it is blocked reading its terminal or stdin): answer with write_stdin."`
	// WaitsSecret: the job waits for a secret (its terminal reads with
	// echo off: a password, a passphrase). Secret says where the person
	// answers it; Waiting is then false, and WriteStdin refuses text
	// unless AllowModelSecret is set.
	WaitsSecret bool           `json:"waiting_for_secret,omitempty" doc:"The command waits for a secret (a password prompt: its terminal does not echo). The user answers it on the page secret.url, never you: give them the address."`
	Secret      *SecretDetails `json:"secret,omitempty" doc:"The secret prompt the command waits at, and the one-time page where the user answers it."`
	// PID is the shell's pid, which is also its process group id and the
	// job's id; 0 in a result that did not start or name a job.
	PID int `json:"pid,omitempty" doc:"Process (group) id of the command, for check_pid and kill_pid."`
	// DurationMS is the time in milliseconds from the start to the
	// shell's exit, or to now.
	DurationMS int64 `json:"duration_ms" doc:"Milliseconds the command has run."`
	// HistoryID is the call's id in the history: Rerender shows its
	// output again with other limits, without running it.
	HistoryID int `json:"history_id,omitempty" doc:"Id of the call in the history: the history tool shows its output again with other limits, without running it."`
	// Cached: the call was answered from the result of an earlier run of
	// the same command, CacheAgeMS milliseconds old; nothing ran.
	Cached     bool  `json:"cached,omitempty" doc:"The call was answered from the cache (a recent run of the same listed command, same directory and environment): nothing ran."`
	CacheAgeMS int64 `json:"cache_age_ms,omitempty" doc:"How old the cached result is, in milliseconds."`
	// Stdout and Stderr describe each stream.
	Stdout StreamDetails `json:"stdout" doc:"Details of standard output."`
	Stderr StreamDetails `json:"stderr" doc:"Details of standard error."`
	// Failures are the lines among those the text cut that look like
	// failures (output.IsFailureLine): compiler errors, failed tests,
	// panics and tracebacks, package manager errors. The text shows them
	// between the head and the tail of their stream, up to
	// output.FailureShare of its byte limit; these are the ones it shows.
	Failures []Failure `json:"failures,omitempty" doc:"Lines among those cut that look like failures (compiler errors, failed tests, panics, tracebacks, package manager errors), as the text shows them between head and tail: [{stream, line, text}], line numbered in the stream's full output."`
	// DiffWith is the history id of the run a diff_with call compared
	// with, and DiffWithExitCode that run's exit code.
	DiffWith         int  `json:"diff_with,omitempty" doc:"History id of the earlier run a diff_with call compared its output with."`
	DiffWithExitCode *int `json:"diff_with_exit_code,omitempty" doc:"Exit code of that earlier run."`
	TokenCount
	// Rules is the decision of the command rules on the command, on
	// every result of a bash call while rules are in force
	// (Policy.Rules).
	Rules *RulesDetails `json:"rules,omitempty" doc:"While command rules are in force (docs/rules.md), how they decided the command before it ran: {decision, parts: [{command, decision, rule, source, justification, reason, approved_for_session}]}. decision is allow, ask or deny, the strictest of the parts; each part is one simple command with the rule that decided it and where that rule is written, or the reason no rule did. A denied command, or one the user did not approve, did not run: do not retry it in another spelling."`
	// Next, for a job that waits for a secret, is the check_pid call
	// that shows what follows. The page's address is never in it: the
	// model never gets it.
	NextCalls
}

// SecretDetails describe the secret prompt a job waits at.
type SecretDetails struct {
	// Prompt is the last line the job wrote: the prompt.
	Prompt string `json:"prompt" doc:"The prompt: the last line the command wrote."`
	// Expires is when the page closes unanswered (RFC 3339); a later look
	// opens a new one.
	Expires string `json:"expires,omitempty" doc:"When the page closes unanswered (RFC 3339); a later look opens a new one."`
	// Program is the program that reads the terminal: its executable's
	// path (its name when the path cannot be read); "" when it could not
	// be found.
	Program string `json:"program" doc:"The program that reads the terminal, which gets what the user types: its executable's path, or its name when the path cannot be read."`
	// Verified: Program is the system's own (a set-user-ID sudo, su,
	// passwd or doas, or a program of secrets.trusted, its files root's
	// and outside every directory the session may write). The page's
	// first line says which.
	Verified bool `json:"verified" doc:"Whether the program is the system's own: a set-user-ID sudo, su, passwd or doas, or a program named in secrets.trusted, whose files are root's and outside every directory the session may write. When false the page warns the user not to type their login password, and with secrets.unverified = \"refuse\" no page is opened."`
}

// A Failure is a line that looks like a failure among the lines a result
// cut.
type Failure struct {
	// Stream is the stream it is in: stdout or stderr.
	Stream string `json:"stream"`
	// Line is its number in the whole stream: the line of the stream's
	// FullOutputPath that holds it.
	Line int64 `json:"line"`
	// Text is the line, cut when long.
	Text string `json:"text"`
}

// StreamDetails describe one stream of a bash result.
type StreamDetails struct {
	// Shown is what the text shows of the stream, without its notices
	// (for stdout, the result's Content unless a screen is shown). It is
	// not in the details a model gets: --format json gives it beside
	// them, as stdout and stderr.
	Shown string `json:"-"`
	// Cut says what of the stream the text left out, and the spill file
	// that holds the whole stream when anything was.
	Cut
	// SpillCapped: the spill file reached its size cap
	// (Policy.Spill.MaxBytes); later output was not saved.
	SpillCapped bool `json:"spill_capped" doc:"The spill file reached its size cap; later output was not saved."`
	// Binary: the stream is binary, and the text only says how big it is.
	Binary bool `json:"binary" doc:"The stream is binary: the text only says how big it is."`
	// BinaryBytes counts the bytes of the binary runs in a stream judged
	// by region: each run is one line of the text, its notice.
	BinaryBytes int64 `json:"binary_bytes,omitempty" doc:"Bytes of binary output left out of the stream; each binary run is one notice line in the text, and the text around it is shown."`
	// SpillError says why the whole stream could not be saved, if it
	// could not.
	SpillError string `json:"spill_error,omitempty" doc:"Why the full output could not be saved, when it could not."`
	// Next holds the calls that show what the text left out of the
	// stream (reads of the spill file); none when nothing was.
	NextCalls
}

// BashPolicy limits each stream of a bash result.
type BashPolicy struct {
	// Stdout and Stderr limit each stream: its strategy (head, tail,
	// head_tail), lines, bytes, characters a line and tokens. When
	// MergeStreams is set, the one merged stream uses Stdout. Their keys
	// are set in the tables bash.stdout and bash.stderr, and in bash for
	// both (the option shared).
	Stdout output.Limits `toml:"stdout,shared"`
	Stderr output.Limits `toml:"stderr,shared"`
	// MergeStreams sends stderr into stdout in order of arrival.
	MergeStreams bool `toml:"merge_streams" doc:"stderr into stdout, in order of arrival"`
	// SpillWhen says when a stream is spilled: on any cut (the default),
	// or only when it passes its byte limit.
	SpillWhen output.SpillWhen
	// Binary is the rule that tells binary output: by region (the
	// default profile's), from the stream's start by spillway's own rule,
	// or by the rule of the design a profile follows.
	Binary output.BinaryRule
	// MaxProcesses caps the tasks (processes and threads) of one job, so
	// that one command cannot take every process the user may have and
	// leave the server (and every other session) unable to start a thread
	// or a command; 0 means no cap; 4096 by default. See
	// docs/reliability.md for how it is enforced.
	MaxProcesses int `toml:"max_processes" min:"0" ceiling:"int32" doc:"processes and threads of one command at most; 0: no cap"`
	// Shapes shows a cut stream that is mostly lines of a few shapes as
	// its telling lines and one line for each shape that stands for the
	// rest, within what the output is worth rather than the limits: the
	// default profile's way; the others reproduce their designs' cuts.
	Shapes bool
}
