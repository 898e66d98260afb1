package shell

import (
	"github.com/spillway-dev/spillway/output"
)

// StreamDetails is spillway.StreamDetails inside the implementation; the
// fields are documented there.
type StreamDetails struct {
	Truncation     output.Truncation `json:"truncation"`
	FullOutputPath string            `json:"full_output_path,omitempty"`
	SpillCapped    bool              `json:"spill_capped"`
	Binary         bool              `json:"binary"`
	SpillError     string            `json:"spill_error,omitempty"`
	Next           []output.Call     `json:"next,omitempty"`
}

// Details is spillway.BashDetails inside the implementation; the fields
// are documented there.
type Details struct {
	ExitCode         *int           `json:"exit_code"`
	Signal           string         `json:"signal,omitempty"`
	TimedOut         bool           `json:"timed_out"`
	Backgrounded     bool           `json:"backgrounded"`
	Running          bool           `json:"running"`
	Waiting          bool           `json:"waiting_for_input,omitempty"`
	WaitsSecret      bool           `json:"waiting_for_secret,omitempty"`
	Secret           *SecretDetails `json:"secret,omitempty"`
	PID              int            `json:"pid,omitempty"`
	DurationMS       int64          `json:"duration_ms"`
	HistoryID        int            `json:"history_id,omitempty"`
	Cached           bool           `json:"cached,omitempty"`
	CacheAgeMS       int64          `json:"cache_age_ms,omitempty"`
	Stdout           StreamDetails  `json:"stdout"`
	Stderr           StreamDetails  `json:"stderr"`
	Failures         []Failure      `json:"failures,omitempty"`
	DiffWith         int            `json:"diff_with,omitempty"`
	DiffWithExitCode *int           `json:"diff_with_exit_code,omitempty"`
	Tokens           int            `json:"tokens"`
	Next             []output.Call  `json:"next,omitempty"`
}

// Failure is spillway.Failure inside the implementation; the fields are
// documented there.
type Failure struct {
	Stream string `json:"stream"`
	Line   int64  `json:"line"`
	Text   string `json:"text"`
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

// Result is spillway.BashResult inside the implementation; the fields are
// documented there.
type Result struct {
	Text    string  `json:"text"`
	Details Details `json:"details"`
	IsError bool    `json:"is_error"`
	Stdout  string  `json:"-"`
	Stderr  string  `json:"-"`
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
