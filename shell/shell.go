// Package shell runs bash commands for the bash tool: one process group per
// command, both streams through the output pipeline, timeouts that
// background instead of killing, jobs, lingering children and cancellation.
package shell

import (
	"context"
	"errors"

	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/policy"
	"github.com/spillway-dev/spillway/spill"
)

// Input holds the parameters of one bash call (SPEC §2).
type Input struct {
	Command         string            `json:"command,omitempty"`
	Timeout         int               `json:"timeout,omitempty"` // ms
	RunInBackground bool              `json:"run_in_background,omitempty"`
	Cwd             string            `json:"cwd,omitempty"`
	Env             map[string]string `json:"env,omitempty"`
	MaxLines        int               `json:"max_lines,omitempty"`
	MaxBytes        int               `json:"max_bytes,omitempty"`
	FullOutput      bool              `json:"full_output,omitempty"`
	CheckPID        int               `json:"check_pid,omitempty"`
	KillPID         int               `json:"kill_pid,omitempty"`

	// Progress, when set, receives the bytes and lines seen so far about
	// once a second while the call waits.
	Progress func(Progress) `json:"-"`
}

// Progress is what a long call has produced so far.
type Progress struct {
	Bytes int64 `json:"bytes"`
	Lines int64 `json:"lines"`
}

// StreamDetails describe one stream of a result.
type StreamDetails struct {
	Truncation     output.Truncation `json:"truncation"`
	FullOutputPath string            `json:"full_output_path,omitempty"`
	SpillCapped    bool              `json:"spill_capped"`
	Binary         bool              `json:"binary"`
}

// Details are the structured details of a bash result.
type Details struct {
	ExitCode     *int          `json:"exit_code"`
	Signal       string        `json:"signal,omitempty"`
	TimedOut     bool          `json:"timed_out"`
	Backgrounded bool          `json:"backgrounded"`
	Running      bool          `json:"running"`
	PID          int           `json:"pid,omitempty"`
	DurationMS   int64         `json:"duration_ms"`
	Stdout       StreamDetails `json:"stdout"`
	Stderr       StreamDetails `json:"stderr"`
}

// Result is a bash result: the text for the model, the details, and the
// pure content of each stream (what was shown, no notices).
type Result struct {
	Text    string  `json:"text"`
	Details Details `json:"details"`
	IsError bool    `json:"is_error"`
	Stdout  string  `json:"-"`
	Stderr  string  `json:"-"`
}

// Config configures a Runner.
type Config struct {
	Cwd    string
	Env    map[string]string
	Policy policy.Policy
	Spill  *spill.Store
}

// A Runner runs the bash calls of one session and owns its jobs.
type Runner struct {
	cfg Config
}

// NewRunner returns a Runner.
func NewRunner(cfg Config) *Runner {
	return &Runner{cfg: cfg}
}

// Run executes one bash call.
func (r *Runner) Run(ctx context.Context, in Input) Result {
	return Result{Text: errors.New("bash: not implemented yet").Error(), IsError: true}
}

// Close kills every job and waits for them.
func (r *Runner) Close() error { return nil }
