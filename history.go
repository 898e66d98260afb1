package spillway

import (
	"context"
	"time"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/output"
)

// HistoryInput is a call of the history tool: without ID, a listing of
// the recorded bash calls that pass Session, Status and Limit; with ID,
// that call's output shown again, with other limits, another strategy, a
// line range or a pattern. The fields are the tool's parameters, named by
// their json tags.
type HistoryInput struct {
	// ID is the history id of the call to show again (a bash result's
	// history_id); 0 lists the calls.
	ID int `json:"id,omitempty"`
	// Session keeps the calls of one session; "" keeps all.
	Session string `json:"session,omitempty"`
	// Status keeps the "ok" calls (exit 0), the "failed" ones (another
	// exit code) or the "running" ones; "" keeps all.
	Status string `json:"status,omitempty"`
	// Limit keeps the newest Limit records; 0 keeps all.
	Limit int `json:"limit,omitempty"`
	// Stream is "stdout" or "stderr"; "" shows both.
	Stream string `json:"stream,omitempty"`
	// Strategy is how lines are chosen within the limits: "head",
	// "tail" or "head_tail"; "" is the policy's.
	Strategy string `json:"strategy,omitempty"`
	// MaxLines and MaxBytes bound each stream shown; zero takes the
	// policy's.
	MaxLines int `json:"max_lines,omitempty"`
	MaxBytes int `json:"max_bytes,omitempty"`
	// MaxTokens, when above zero, bounds each stream shown to that many
	// estimated tokens too (output.EstimateTokens, which errs high).
	MaxTokens int `json:"max_tokens,omitempty"`
	// Offset, when given, shows the lines from this one (1-based) on.
	Offset int `json:"offset,omitempty"`
	// Pattern, when given, shows only the lines that match this RE2
	// regular expression, each with its line number.
	Pattern string `json:"pattern,omitempty"`
}

// historyEntry declares the history tool: its parameters are the fields
// of HistoryInput, by their json tags.
var historyEntry = entry{tool: tool{
	Name:     "history",
	Title:    "Look back at earlier bash calls",
	ReadOnly: true,
	MCPOnly:  true,
	Describe: describeHistory,
	Params: []param{
		{Name: "id", Type: registry.Int, Min: 1, Methods: registry.Rerender, Selects: true,
			Doc: "History id of a call to show again (history_id in a bash result). Leave it out to list the calls."},
		{Name: "session", Type: registry.String,
			Doc: "List only the calls of this bash session."},
		{Name: "status", Type: registry.String, Enum: []string{"ok", "failed", "running"},
			Doc: "List only calls that exited 0 (`ok`), exited otherwise (`failed`), or still run (`running`)."},
		{Name: "limit", Type: registry.Int, Min: 1,
			Doc: "List only the newest N calls."},
		{Name: "stream", Type: registry.String, Enum: []string{"stdout", "stderr"}, Methods: registry.Rerender,
			Doc: "Show only `stdout` or `stderr` (default both)."},
		{Name: "strategy", Type: registry.String, Enum: []string{"head", "tail", "head_tail"}, Methods: registry.Rerender,
			Doc: "Which lines to keep when the output does not fit: `head`, `tail` or `head_tail`."},
		{Name: "max_lines", Type: registry.Int, Min: 1, Methods: registry.Rerender, Config: "bash.max_lines",
			Default: func(p Policy) any { return p.Bash.Stdout.MaxLines },
			Doc:     "Most lines shown per stream."},
		{Name: "max_bytes", Type: registry.Int, Min: 1, Methods: registry.Rerender, Config: "bash.max_bytes",
			Default: func(p Policy) any { return p.Bash.Stdout.MaxBytes },
			Doc:     "Most bytes shown per stream."},
		{Name: "max_tokens", Type: registry.Int, Min: 1, Ceiling: streamCeiling, Methods: registry.Rerender, Config: "bash.max_tokens",
			Default: func(p Policy) any { return tokensLimit(p.Bash.Stdout.MaxTokens) },
			Doc:     "Most tokens shown per stream, as spillway estimates them (on the high side)."},
		{Name: "offset", Type: registry.Int, Min: 1, Methods: registry.Rerender,
			Doc: "Show the lines from this line on (1-based): a line range with max_lines."},
		{Name: "pattern", Type: registry.String, Methods: registry.Rerender,
			Doc: "Show only the lines matching this RE2 regular expression, with their line numbers."},
	},
}, run: handlers{registry.Run: handle((*Toolset).History), registry.Rerender: handle((*Toolset).History)}}

// A HistoryRecord is one recorded bash call.
type HistoryRecord struct {
	// ID is the call's history id (BashDetails.HistoryID), for Rerender.
	ID      int      `json:"id"`
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	Session string   `json:"session,omitempty"`
	// Cwd is the directory the command ran in.
	Cwd   string    `json:"cwd"`
	Start time.Time `json:"start"`
	// DurationMS is the time in milliseconds to the shell's exit, or so
	// far.
	DurationMS int64 `json:"duration_ms"`
	// ExitCode is nil while the command runs.
	ExitCode *int `json:"exit_code"`
	Running  bool `json:"running"`
	// Cached: the call was answered from the result of call CachedFrom;
	// nothing ran.
	Cached     bool         `json:"cached,omitempty"`
	CachedFrom int          `json:"cached_from,omitempty"`
	Stdout     StreamRecord `json:"stdout"`
	Stderr     StreamRecord `json:"stderr"`
	// Merged: stderr went into stdout (a terminal, or a policy that
	// merges them).
	Merged bool `json:"merged,omitempty"`
}

// A StreamRecord describes one stream of a recorded call or of a
// background job.
type StreamRecord struct {
	TotalBytes int64 `json:"total_bytes"`
	TotalLines int64 `json:"total_lines"`
	// FullOutputPath is the spill file that holds the stream.
	FullOutputPath string `json:"full_output_path,omitempty"`
	// SpillCapped: the spill file reached its size cap; later output was
	// not saved.
	SpillCapped bool `json:"spill_capped,omitempty"`
	// TailPath holds the end of a stream whose spill file was capped.
	TailPath string `json:"tail_path,omitempty"`
	// Binary: the stream is binary.
	Binary bool `json:"binary,omitempty"`
}

// rerenderResult is a recorded call's output shown again.
type rerenderResult struct {
	Text    string          `json:"text"`
	Details RerenderDetails `json:"details"`
	// IsError: a stream could no longer be shown (its section says why).
	IsError bool `json:"is_error"`
}

// RerenderDetails describe a recorded call shown again.
type RerenderDetails struct {
	Record HistoryRecord `json:"record"`
	// Stdout and Stderr say what part of each stream was shown; nil for
	// a stream not shown.
	Stdout *ShownStream `json:"stdout,omitempty"`
	Stderr *ShownStream `json:"stderr,omitempty"`
}

// ShownStream says what part of a recorded stream Rerender showed.
type ShownStream struct {
	// Mode is how the lines were chosen: "head", "tail", "head_tail",
	// "range" or "pattern".
	Mode string `json:"mode"`
	// FirstLine and LastLine bound the lines shown (0 when none).
	FirstLine   int64 `json:"first_line"`
	LastLine    int64 `json:"last_line"`
	OutputLines int64 `json:"output_lines"`
	OutputBytes int64 `json:"output_bytes"`
	TotalLines  int64 `json:"total_lines"`
	TotalBytes  int64 `json:"total_bytes"`
	// Matches counts the matching lines shown (pattern mode).
	Matches int64 `json:"matches,omitempty"`
	// Truncated: lines or bytes of the selection were left out.
	Truncated bool `json:"truncated"`
	// Missing says what part of the stream was never saved, if any.
	Missing string `json:"missing,omitempty"`
}

// History lists the recorded bash calls that pass in's filter, oldest
// first, with the named sessions; or, with in.ID, shows that call's output
// again without running anything. Every command a bash call starts is
// recorded, with the paths of its spill files; the oldest records are
// forgotten first (200 are kept), their spill files once no result has
// named them for Policy.Spill.KeepNamed.
func (t *Toolset) History(ctx context.Context, in HistoryInput) (Result[HistoryDetails], error) {
	if err := t.open(); err != nil {
		return Result[HistoryDetails]{}, err
	}
	if in.ID != 0 {
		res, err := t.shell.Render(shell.Selection{
			ID: in.ID, Stream: in.Stream, Strategy: output.Strategy(in.Strategy),
			MaxLines: in.MaxLines, MaxBytes: in.MaxBytes, MaxTokens: in.MaxTokens, Offset: in.Offset, Pattern: in.Pattern,
		})
		if err != nil {
			return Result[HistoryDetails]{}, toolError("history", err)
		}
		r := newRerenderResult(res)
		d := HistoryDetails{Shown: &r.Details}
		return Result[HistoryDetails]{Text: t.finish(r.Text, &d.Tokens, func() any { return d }), Details: d, IsError: r.IsError}, nil
	}
	d := HistoryDetails{Records: historyRecords(t.shell.History(), in), Sessions: t.Sessions()}
	text := historyText(d.Records, d.Sessions)
	return Result[HistoryDetails]{Text: t.finish(text, &d.Tokens, func() any { return d }), Details: d}, nil
}

// HistoryDetails are the details of the history tool: a listing's Records
// and Sessions, or the call Shown again.
type HistoryDetails struct {
	// Records are the recorded calls a listing shows, oldest first.
	Records []HistoryRecord `json:"records,omitempty"`
	// Sessions are the named sessions, listed beside the records.
	Sessions []SessionInfo `json:"sessions,omitempty"`
	// Shown describes the call a Rerender showed again.
	Shown *RerenderDetails `json:"shown,omitempty"`
	// Tokens is the estimate of the tokens of the result's text, as the
	// model reads it (output.EstimateTokens; it errs high).
	Tokens int `json:"tokens"`
}
