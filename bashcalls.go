package spillway

import (
	"time"

	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/output"
)

// What the bash and write_stdin tools ask of the shell (their inputs as
// the shell's requests), and what they show of its answer.

func (in BashInput) command() shell.Command {
	c := shell.Command{
		Command: in.Command, Args: in.Args, Session: in.Session, Cwd: in.Cwd, Env: in.Env,
		Timeout: in.Timeout, Background: in.RunInBackground,
		Limits: shell.Limits{
			MaxLines: in.MaxLines, MaxBytes: in.MaxBytes, MaxTokens: in.MaxTokens, Full: in.FullOutput,
			StdoutLines: in.StdoutMaxLines, StderrLines: in.StderrMaxLines,
		},
		TTY: in.TTY, Size: shell.TermSize{Cols: in.Cols, Rows: in.Rows}, Stdin: in.Stdin,
		DiffWith: in.DiffWith,
	}
	if progress := in.Progress; progress != nil {
		c.Progress = func(bytes, lines int64) { progress(BashProgress{Bytes: bytes, Lines: lines}) }
	}
	return c
}

func (in CheckJobInput) look() shell.Look {
	return shell.Look{PID: in.PID, Wait: in.Timeout, Screen: in.Screen}
}

func (in WriteStdinInput) send() shell.Send {
	return shell.Send{
		PID: in.PID, Text: in.Input, Keys: in.Keys, Close: in.CloseStdin, AllowSecret: in.AllowModelSecret,
		Wait: in.Timeout, Resize: shell.TermSize{Cols: in.Cols, Rows: in.Rows}, Screen: in.Screen,
	}
}

// newBashResult is what a bash call shows of the shell's outcome.
func newBashResult(o shell.Outcome) bashResult {
	j := o.Job
	d := BashDetails{
		TimedOut: j.TimedOut, Backgrounded: j.Backgrounded, Running: j.Running,
		Waiting: j.Waiting, WaitsSecret: j.WaitsSecret,
		PID: j.PID, DurationMS: j.Elapsed.Milliseconds(),
		HistoryID: o.HistoryID, Cached: o.Cached, CacheAgeMS: o.CacheAge.Milliseconds(),
		Stdout: streamDetails(o.Stdout), DiffWith: o.DiffWith, Next: o.Next,
	}
	if j.Exit != nil {
		code := j.Exit.Code
		d.ExitCode, d.Signal = &code, j.Exit.Signal
	}
	if s := o.Secret; s != nil {
		d.Secret = &SecretDetails{Prompt: s.Prompt, URL: s.URL}
		if !s.Expires.IsZero() {
			d.Secret.Expires = s.Expires.UTC().Format(time.RFC3339)
		}
	}
	res := bashResult{Text: o.Text, IsError: o.Failed, Stdout: o.Stdout.Text()}
	if o.Screen != "" {
		res.Stdout = o.Screen // what was shown of the terminal
	}
	if o.Stderr != nil {
		d.Stderr = streamDetails(*o.Stderr)
		res.Stderr = o.Stderr.Text()
	}
	if o.DiffWith == 0 {
		d.Failures = failures(o.Stdout, o.Stderr)
	}
	if o.DiffWithExit != nil {
		code := o.DiffWithExit.Code
		d.DiffWithExitCode = &code
	}
	res.Details = d
	return res
}

// streamDetails describes what a result showed of one stream.
func streamDetails(r output.Result) StreamDetails {
	return StreamDetails{
		Truncation:     r.Truncation,
		FullOutputPath: r.FullOutputPath,
		SpillCapped:    r.SpillCapped,
		Binary:         r.Binary,
		SpillError:     r.SpillError,
		Next:           r.Next(),
	}
}

// failures lists the failure lines a result shows of its cut lines.
func failures(stdout output.Result, stderr *output.Result) []Failure {
	var out []Failure
	add := func(label string, r output.Result) {
		for _, f := range r.Failures {
			out = append(out, Failure{Stream: label, Line: f.Line, Text: f.Text})
		}
	}
	add("stdout", stdout)
	if stderr != nil {
		add("stderr", *stderr)
	}
	return out
}
