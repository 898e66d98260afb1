package shell

import (
	"github.com/spillway-dev/spillway/output"
)

// StreamDetails describe one stream of a result.
type StreamDetails struct {
	Truncation     output.Truncation `json:"truncation"`
	FullOutputPath string            `json:"full_output_path,omitempty"`
	SpillCapped    bool              `json:"spill_capped"`
	Binary         bool              `json:"binary"`
	// SpillError says why the full output could not be saved, if it
	// could not.
	SpillError string `json:"spill_error,omitempty"`
	// Next holds the calls that show what this stream's result left out
	// (the read of the spill file that covers it); none when nothing was.
	Next []output.Call `json:"next,omitempty"`
}

// Details are the structured details of a bash result.
type Details struct {
	// ExitCode is the shell's exit code (128+N when signal N killed it);
	// null while the shell runs.
	ExitCode *int `json:"exit_code"`
	// Signal names the signal that killed the shell ("SIGKILL"), if one did.
	Signal string `json:"signal,omitempty"`
	// TimedOut: the command outlived its timeout and was backgrounded.
	TimedOut bool `json:"timed_out"`
	// Backgrounded: the command, or processes it left behind, go on as a
	// background job; check_pid and kill_pid take PID.
	Backgrounded bool `json:"backgrounded"`
	// Running: the job still has live processes or open output. It can be
	// true beside an exit code when the shell exited but children it
	// started still run (lingering children).
	Running bool `json:"running"`
	// Waiting: the job seems to wait for input (a prompt, a REPL): one of
	// its processes is blocked reading the input write_stdin writes to,
	// and it has written nothing for a moment.
	Waiting bool `json:"waiting_for_input,omitempty"`
	// PID is the shell's pid, which is also its process group id and the
	// job's id. It is left out of results that did not start or name one.
	PID int `json:"pid,omitempty"`
	// DurationMS is the time from start to the shell's exit, or to now.
	DurationMS int64 `json:"duration_ms"`
	// HistoryID is the call's id in the history, to show its output
	// again with other limits without running it.
	HistoryID int `json:"history_id,omitempty"`
	// Cached: the call was answered from the result of an earlier run of
	// the same command (the opt-in cache), CacheAgeMS old; nothing ran.
	Cached     bool          `json:"cached,omitempty"`
	CacheAgeMS int64         `json:"cache_age_ms,omitempty"`
	Stdout     StreamDetails `json:"stdout"`
	Stderr     StreamDetails `json:"stderr"`
	// Tokens is the estimate of the tokens of the result's text, as the
	// model reads it (output.EstimateTokens; it errs high).
	Tokens int `json:"tokens"`
}

// Result is a bash result: the text for the model, the details, and the
// pure content of each stream (what was shown, no notices).
type Result struct {
	Text    string  `json:"text"`
	Details Details `json:"details"`
	// IsError says the command did not succeed, as a model should hear it:
	// it exited non-zero, was cancelled, or (for a job check) ended
	// non-zero. A call that could not be made is an error, not a result.
	IsError bool   `json:"is_error"`
	Stdout  string `json:"-"`
	Stderr  string `json:"-"`
}

// streamDetails fills the details of one stream from its pipeline result.
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
