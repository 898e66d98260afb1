package spillway

import (
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/output"
)

// What bash, check_pid, kill_pid and write_stdin calls show of the
// shell's answer: the details built from its Outcome.

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
	d.Secret = o.Secret
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
