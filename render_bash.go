package spillway

import (
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// What bash, check_pid, kill_pid and write_stdin calls show of the
// shell's answer: its details, with what its windows say of each stream.

// bashResult is what a bash call shows of the shell's outcome: the
// shell's details, each stream's as its window says, and the failure
// lines it shows (none for a diff, whose lines are not the command's).
func bashResult(o shell.Outcome) Result[BashDetails] {
	d := o.Details
	d.Stdout = streamDetails(o.Stdout)
	d.Stdout.Shown = o.Stdout.Text()
	res := Result[BashDetails]{Text: o.Text, IsError: o.Failed, Content: o.Stdout.Text()}
	if o.Screen != "" {
		res.Content = o.Screen // what was shown of the terminal
	}
	if o.Stderr != nil {
		d.Stderr = streamDetails(*o.Stderr)
		d.Stderr.Shown = o.Stderr.Text()
	}
	if d.DiffWith == 0 {
		d.Failures = failures(o.Stdout, o.Stderr)
	}
	res.Details = d
	return res
}

// streamDetails describes what a result showed of one stream.
func streamDetails(r output.Result) StreamDetails {
	return StreamDetails{
		Cut:         tool.Cut{Truncation: r.Truncation, FullOutputPath: r.FullOutputPath},
		SpillCapped: r.SpillCapped,
		Binary:      r.Binary,
		BinaryBytes: r.BinaryBytes,
		SpillError:  r.SpillError,
		NextCalls:   tool.NextCalls{Next: r.Next()},
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
