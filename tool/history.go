package tool

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// HistoryInput is a call of the history tool: without ID, a listing of
// the recorded bash calls that pass Session, Status and Limit; with ID,
// that call's output shown again, with other limits, another strategy, a
// line range or a pattern. The fields are the tool's parameters, named by
// their json tags.
type HistoryInput struct {
	// ID is the history id of the call to show again (a bash result's
	// history_id); 0 lists the calls.
	ID int `json:"id,omitempty" min:"1" doc:"History id of a call to show again (history_id in a bash result). Leave it out to list the calls."`
	// Session keeps the calls of one session; "" keeps all.
	Session string `json:"session,omitempty" doc:"List only the calls of this bash session."`
	// Status keeps the "ok" calls (exit 0), the "failed" ones (another
	// exit code) or the "running" ones; "" keeps all.
	Status string `json:"status,omitempty" enum:"ok,failed,running" doc:"List only calls that exited 0 (\x60ok\x60), exited otherwise (\x60failed\x60), or still run (\x60running\x60)."`
	// Limit keeps the newest Limit records; 0 keeps all.
	Limit int `json:"limit,omitempty" min:"1" doc:"List only the newest N calls."`
	// Stream is "stdout" or "stderr"; "" shows both.
	Stream string `json:"stream,omitempty" enum:"stdout,stderr" doc:"Show only \x60stdout\x60 or \x60stderr\x60 (default both)."`
	// Strategy is how lines are chosen within the limits: "head",
	// "tail" or "head_tail"; "" is the policy's.
	Strategy string `json:"strategy,omitempty" enum:"head,tail,head_tail" doc:"Which lines to keep when the output does not fit: \x60head\x60, \x60tail\x60 or \x60head_tail\x60."`
	// MaxLines and MaxBytes bound each stream shown; zero takes the
	// policy's.
	MaxLines int `json:"max_lines,omitempty" min:"1" default:"bash.max_lines" doc:"Most lines shown per stream."`
	MaxBytes int `json:"max_bytes,omitempty" min:"1" default:"bash.max_bytes" doc:"Most bytes shown per stream."`
	// MaxTokens, when above zero, bounds each stream shown to that many
	// estimated tokens too (output.EstimateTokens, which errs high).
	MaxTokens int `json:"max_tokens,omitempty" min:"1" ceiling:"stream" default:"bash.max_tokens" doc:"Most tokens shown per stream, as spillway estimates them (on the high side)."`
	// Offset, when given, shows the lines from this one (1-based) on.
	Offset int `json:"offset,omitempty" min:"1" doc:"Show the lines from this line on (1-based): a line range with max_lines."`
	// Pattern, when given, shows only the lines that match this RE2
	// regular expression, each with its line number.
	Pattern string `json:"pattern,omitempty" doc:"Show only the lines matching this RE2 regular expression, with their line numbers."`
	// Change shows the diff of a file change (edit, write, apply_patch)
	// again, by its number (the change in the tool's details).
	Change int `json:"change,omitempty" min:"1" doc:"Show a file change again: the number an edit, write or apply_patch result gave as change."`
	// Undo puts back what file change Undo replaced, when its files
	// still hold what it wrote.
	Undo int `json:"undo,omitempty" min:"1" doc:"Undo a file change, by its number: its files get back what it replaced, if they still hold what it wrote (else nothing changes and the error says which file differs)."`
}

// Validate is history's own check, beside its fields' bounds: a listing
// (no ID) takes Session, Status and Limit; a call shown again (ID) takes
// the others, and Offset (a line range) no Strategy; Change and Undo go
// alone.
func (in HistoryInput) Validate() error {
	listing := given([]string{"session", "status", "limit"}, []bool{in.Session != "", in.Status != "", in.Limit != 0})
	shown := given([]string{"stream", "strategy", "max_lines", "max_bytes", "max_tokens", "offset", "pattern"},
		[]bool{in.Stream != "", in.Strategy != "", in.MaxLines != 0, in.MaxBytes != 0, in.MaxTokens != 0, in.Offset != 0, in.Pattern != ""})
	if in.Change != 0 || in.Undo != 0 {
		if in.Change != 0 && in.Undo != 0 || in.ID != 0 || len(listing) > 0 || len(shown) > 0 {
			return errors.New("change and undo each go alone: give one of them and nothing else")
		}
		return nil
	}
	switch {
	case in.ID != 0 && len(listing) > 0:
		return fmt.Errorf("id takes only stream, strategy, max_lines, max_bytes, max_tokens, offset, pattern (got %s)", strings.Join(listing, ", "))
	case in.ID == 0 && len(shown) > 0:
		return fmt.Errorf("%s go with id: give it, or leave them out", strings.Join(shown, ", "))
	case in.Offset > 0 && in.Strategy != "":
		return errors.New("give offset (a line range) or strategy, not both")
	}
	return nil
}

// given names the parameters whose set is true.
func given(names []string, set []bool) []string {
	var out []string
	for i, name := range names {
		if set[i] {
			out = append(out, name)
		}
	}
	return out
}

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
	DurationMS int64 `json:"duration_ms" doc:"Milliseconds the command has run."`
	// ExitCode is nil while the command runs.
	ExitCode *int `json:"exit_code" doc:"Exit code of the command; null while it runs."`
	Running  bool `json:"running" doc:"The command (or a child it left) is still running."`
	// Cached: the call was answered from the result of call CachedFrom;
	// nothing ran.
	Cached     bool         `json:"cached,omitempty" doc:"The call was answered from the cache (a recent run of the same listed command, same directory and environment): nothing ran."`
	CachedFrom int          `json:"cached_from,omitempty"`
	Stdout     StreamRecord `json:"stdout" doc:"Details of standard output."`
	Stderr     StreamRecord `json:"stderr" doc:"Details of standard error."`
	// Merged: stderr went into stdout (a terminal, or a policy that
	// merges them).
	Merged bool `json:"merged,omitempty"`
}

// A StreamRecord describes one stream of a recorded call or of a
// background job.
type StreamRecord struct {
	TotalBytes int64 `json:"total_bytes" doc:"Bytes in the whole output."`
	TotalLines int64 `json:"total_lines" doc:"Lines in the whole output or file."`
	// FullOutputPath is the spill file that holds the stream.
	FullOutputPath string `json:"full_output_path,omitempty" doc:"File holding the whole stream, when anything was cut."`
	// SpillCapped: the spill file reached its size cap; later output was
	// not saved.
	SpillCapped bool `json:"spill_capped,omitempty" doc:"The spill file reached its size cap; later output was not saved."`
	// SpillError says why the spill file holds only the stream's start
	// (a full disk, the session's budget).
	SpillError string `json:"spill_error,omitempty" doc:"Why the spill file holds only the start of the stream, when saving it failed."`
	// TailPath holds the end of a stream whose spill file was capped.
	TailPath string `json:"tail_path,omitempty"`
	// Binary: the stream is binary.
	Binary bool `json:"binary,omitempty" doc:"The stream is binary: the text only says how big it is."`
}

// ShownStream says what part of a recorded stream history showed again.
type ShownStream struct {
	// Mode is how the lines were chosen: "head", "tail", "head_tail",
	// "range" or "pattern".
	Mode string `json:"mode"`
	// FirstLine and LastLine bound the lines shown (0 when none).
	FirstLine   int64 `json:"first_line"`
	LastLine    int64 `json:"last_line"`
	OutputLines int64 `json:"output_lines" doc:"Lines shown."`
	OutputBytes int64 `json:"output_bytes" doc:"Bytes shown."`
	TotalLines  int64 `json:"total_lines" doc:"Lines in the whole output or file."`
	TotalBytes  int64 `json:"total_bytes" doc:"Bytes in the whole output."`
	// Matches counts the matching lines shown (pattern mode).
	Matches int64 `json:"matches,omitempty"`
	// Truncated: lines or bytes of the selection were left out.
	Truncated bool `json:"truncated" doc:"True when anything at all was left out."`
	// Missing says what part of the stream was never saved, if any.
	Missing string `json:"missing,omitempty"`
}
