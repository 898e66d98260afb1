package output

import (
	"errors"
	"fmt"
)

// Strategy says which end of an output is kept when it does not fit.
type Strategy string

const (
	// Head keeps the first lines.
	Head Strategy = "head"
	// Tail keeps the last lines.
	Tail Strategy = "tail"
	// HeadTail keeps the first and the last lines, with one marker line
	// between them naming what was omitted.
	HeadTail Strategy = "head_tail"
)

// Limits bound what one stream shows to the model. MaxLines and MaxBytes are
// enforced together; whichever is hit first cuts. The tags name the keys
// of a stream's table in spillway's config file and bound them
// (docs/profiles.md).
type Limits struct {
	Strategy Strategy `toml:"strategy" check:"strategy" doc:"which end is kept: head, tail or head_tail"`
	// HeadShare is the share (0–1) of both limits given to the head under
	// HeadTail. Budget the head leaves unused goes to the tail.
	HeadShare float64 `toml:"head_share" check:"share" doc:"head_tail: the head's share of the limits"`
	// MaxLines is the most lines shown (> 0).
	MaxLines int `toml:"max_lines" min:"1" ceiling:"lines" doc:"lines shown of a stream"`
	// MaxBytes is the most bytes of content shown (> 0).
	MaxBytes int `toml:"max_bytes" min:"1" ceiling:"stream" doc:"bytes shown of a stream"`
	// MaxLineChars cuts a longer line in the shown text; the cut line ends
	// with "... [N chars cut]". Zero means no per-line cap.
	MaxLineChars int `toml:"max_line_chars" min:"0" ceiling:"stream" doc:"a longer line is cut; 0: never"`
	// MaxTokens, when above zero, is the most tokens of content shown, as
	// EstimateTokens counts them: a fourth limit, applied to what the
	// other three let through, which it cuts the way MaxBytes does
	// (whole lines, from the ends the strategy keeps). Zero means no
	// token limit.
	MaxTokens int `toml:"max_tokens" min:"0" ceiling:"stream" doc:"estimated tokens shown of a stream; 0: no limit"`
	// ShownLines, when above zero and below MaxLines, is the most lines
	// shown once the stream does not fit: MaxLines and MaxBytes decide
	// whether it is cut, ShownLines how many lines stay (opencode's "first
	// 500 and last 500 lines once output passes 2000 lines"). Zero shows up
	// to MaxLines.
	ShownLines int
}

// DefaultLimits are the bash tool's default limits for one stream.
var DefaultLimits = Limits{
	Strategy:     HeadTail,
	HeadShare:    0.4,
	MaxLines:     2000,
	MaxBytes:     50 * 1024,
	MaxLineChars: 2000,
}

// Validate reports the first limit that cannot be used.
func (l Limits) Validate() error {
	switch l.Strategy {
	case Head, Tail, HeadTail:
	default:
		return fmt.Errorf("strategy %q: want head, tail or head_tail", l.Strategy)
	}
	if l.HeadShare < 0 || l.HeadShare > 1 {
		return fmt.Errorf("head_share %v: want a number from 0 to 1", l.HeadShare)
	}
	if l.MaxLines <= 0 {
		return errors.New("max_lines must be positive")
	}
	if l.MaxBytes <= 0 {
		return errors.New("max_bytes must be positive")
	}
	if l.MaxLineChars < 0 {
		return errors.New("max_line_chars must not be negative")
	}
	if l.MaxTokens < 0 {
		return errors.New("max_tokens must not be negative")
	}
	if l.ShownLines < 0 {
		return errors.New("shown_lines must not be negative")
	}
	return nil
}

// shownLines is the most lines shown of a stream that does not fit.
func (l Limits) shownLines() int {
	if l.ShownLines > 0 && l.ShownLines < l.MaxLines {
		return l.ShownLines
	}
	return l.MaxLines
}

// Truncation is the common truncation object of every result's details
// (docs/tools.md).
type Truncation struct {
	// Truncated is true when anything at all was left out.
	Truncated bool `json:"truncated" doc:"True when anything at all was left out."`
	// TruncatedBy is "lines", "bytes" or "tokens" for the limit that
	// dropped whole lines or bytes, "line_chars" when the only loss is
	// lines cut by MaxLineChars, and "" when nothing was left out.
	TruncatedBy string `json:"truncated_by" doc:"The limit that cut: lines, bytes, tokens (max_tokens), line_chars (only long lines were shortened), or empty."`
	TotalLines  int64  `json:"total_lines" doc:"Lines in the whole output or file."`
	TotalBytes  int64  `json:"total_bytes" doc:"Bytes in the whole output."`
	OutputLines int64  `json:"output_lines" doc:"Lines shown."`
	OutputBytes int64  `json:"output_bytes" doc:"Bytes shown."`
	// LinesCut counts lines shortened by MaxLineChars.
	LinesCut int64 `json:"lines_cut" doc:"Lines shortened because they were too long."`
	// FirstLinePartial: the first line of the stream was longer than the
	// byte budget and only its beginning is shown (head).
	FirstLinePartial bool `json:"first_line_partial" doc:"Only the beginning of the first line is shown: it is longer than the whole byte budget."`
	// LastLinePartial: the last line of the stream was longer than the byte
	// budget and only its end is shown (tail).
	LastLinePartial bool `json:"last_line_partial" doc:"Only the end of the last line is shown: it is longer than the whole byte budget."`
}

// Values of Truncation.TruncatedBy.
const (
	ByLines     = "lines"
	ByBytes     = "bytes"
	ByLineChars = "line_chars"
	ByTokens    = "tokens"
)
