package shell

import (
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// An Outcome is what a call on a job (Run, Check, Kill, Write) shows: the
// text the model reads, the result's details, and the windows of its
// streams the text was rendered from.
type Outcome struct {
	Text string
	// Failed: the command did not succeed, as a model should hear it: it
	// exited non-zero or was cancelled, or (a job looked at) ended
	// non-zero.
	Failed bool
	// Details are how the job stood when the outcome was made (its pid,
	// exit, state, a secret prompt and the calls that go on from it), the
	// call's history id (0 for a look at a job), whether it was answered
	// from the cache (nothing ran), and for a diff_with call the run
	// compared with. What the windows say of each stream, the failure
	// lines, the rules' decision and the tokens are left to the caller.
	Details tool.BashDetails
	// Stdout and Stderr are the windows of the streams the text shows;
	// Stderr is nil when stderr went into stdout. Screen, when set, is the
	// terminal's screen, shown in place of stdout's window. For a
	// diff_with call they are the windows of the diffs, whose lines are
	// not the command's failures.
	Stdout output.Result
	Stderr *output.Result
	Screen string
}
