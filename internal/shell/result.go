package shell

import (
	"time"

	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// An Outcome is what a call on a job (Run, Check, Kill, Write) shows: the
// text the model reads, how the job stands, and the windows of its
// streams the text was rendered from.
type Outcome struct {
	Text string
	// Failed: the command did not succeed, as a model should hear it: it
	// exited non-zero or was cancelled, or (a job looked at) ended
	// non-zero.
	Failed bool
	Job    JobStatus
	// Stdout and Stderr are the windows of the streams the text shows;
	// Stderr is nil when stderr went into stdout. Screen, when set, is the
	// terminal's screen, shown in place of stdout's window.
	Stdout output.Result
	Stderr *output.Result
	Screen string
	// HistoryID is the call's record in the history; 0 for a look at a
	// job.
	HistoryID int
	// Cached: the call was answered from an earlier run's result, which
	// ended CacheAge ago; nothing ran.
	Cached   bool
	CacheAge time.Duration
	// DiffWith, for a diff_with call, is the history id of the run
	// compared with, and DiffWithExit its exit. Stdout and Stderr are
	// then the windows of the diffs, whose lines are not the command's
	// failures.
	DiffWith     int
	DiffWithExit *Exit
	// Secret is the prompt a job waits at for a secret, and Next the
	// calls that go on from it.
	Secret *tool.SecretDetails
	Next   []output.Call
}

// A JobStatus is how a job stood when its outcome was made.
type JobStatus struct {
	// PID is the job's id; 0 for a call answered from the cache.
	PID int
	// Exit is how the shell ended; nil while it runs.
	Exit    *Exit
	Elapsed time.Duration
	// TimedOut: the command outlived its timeout. Backgrounded: it goes
	// on as a background job. Running: something of it is left. Waiting
	// and WaitsSecret: it seems to wait for input, or for a secret.
	TimedOut, Backgrounded, Running, Waiting, WaitsSecret bool
}
