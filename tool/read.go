package tool

import "github.com/spillway-dev/spillway/output"

// ReadInput is one page of a file to read: the read tool's parameters,
// named by their json tags (docs/tools.md gives defaults and bounds).
type ReadInput struct {
	// Path is the file to read, relative to the toolset's Cwd.
	Path string `json:"path" cli:"positional" doc:"The file to read (absolute, or relative to the session's working directory)."`
	// Offset is the first line shown, 1-based; 0 is 1.
	Offset int `json:"offset,omitempty" min:"1" default:"1" doc:"First line to show, 1-based."`
	// Limit is the most lines shown; 0 takes the policy's, 2000 by
	// default.
	Limit int `json:"limit,omitempty" min:"1" ceiling:"lines" default:"read.max_lines" doc:"Most lines to show."`
	// LineNumbers prefixes every line with its number, as cat -n does.
	LineNumbers bool `json:"line_numbers,omitempty" doc:"Prefix each line with its number, \x60cat -n\x60 style."`
	// CharOffset pages within the line at Offset: the result shows that
	// line from its character CharOffset (0-based) on, as much as the
	// byte limit holds. A line too long to show whole is read this way.
	CharOffset int `json:"char_offset,omitempty" min:"0" doc:"Page within the line at offset: show it from this character (0-based) on, as much as the byte limit holds. A cut line's notice gives the value to continue from."`
}

// ReadDetails are the structured details of a read result.
type ReadDetails struct {
	// Path is the absolute path read.
	Path string `json:"path" doc:"The path that was read or searched."`
	// Kind is "text" or "image".
	Kind string `json:"kind" doc:"text or image."`
	// MimeType is the detected type of the file.
	MimeType string `json:"mime_type" doc:"Detected MIME type."`
	// Offset is the number of the first line asked for.
	Offset int64 `json:"offset" doc:"First line shown, 1-based."`
	// CharOffset is, when the result shows part of one line, the number
	// of that line's characters before the part shown.
	CharOffset int64 `json:"char_offset,omitempty" doc:"When one line is shown in part: how many of its characters come before the part shown."`
	// LinesShown counts the lines shown.
	LinesShown int64 `json:"lines_shown" doc:"Lines shown."`
	// TotalLines counts the lines of the file.
	TotalLines int64 `json:"total_lines" doc:"Lines in the whole output or file."`
	// LinesCut counts the shown lines cut at the policy's MaxLineChars.
	LinesCut int64 `json:"lines_cut" doc:"Lines shortened because they were too long."`
	// Truncation says what was left out. For read, Truncated means lines
	// remain after the last one shown; cut lines are counted in LinesCut
	// only.
	Truncation output.Truncation `json:"truncation" doc:"What was left out of the text. truncated is true when anything was."`
	// Next holds the read that continues from the first thing this
	// result did not show whole: the rest of a cut line, or the next line.
	NextCalls
	TokenCount
}

// ReadPolicy limits a read.
type ReadPolicy struct {
	// MaxLines is the default of the read's limit parameter (2000);
	// MaxBytes bounds a page (50 KiB); a line longer than MaxLineChars
	// (2000) is cut, and continued with char_offset; zero never cuts.
	// MaxTokens, when above zero, ends a page before the line that would
	// pass that many estimated tokens.
	MaxLines     int `toml:"max_lines" min:"1" ceiling:"lines" doc:"lines of a page (the limit parameter's default)"`
	MaxBytes     int `toml:"max_bytes" min:"1" ceiling:"stream" doc:"bytes of a page"`
	MaxLineChars int `toml:"max_line_chars" min:"0" ceiling:"stream" doc:"a longer line is cut, and continued with char_offset; 0: never"`
	MaxTokens    int `toml:"max_tokens" min:"0" ceiling:"stream" doc:"estimated tokens of a page; 0: no limit"`
	// LineNumbers numbers every line whatever the call's line_numbers,
	// for agents tuned to a read tool that always numbers them.
	LineNumbers bool
	// NoPartialLines, set by the pi profile, shows a first line over
	// MaxBytes as a notice alone: its size and the bash command that
	// prints its start ("[Line 1 is 50.0KB, exceeds 30.0KB limit. Use
	// bash to read: head -c 30720 FILE]"), instead of its start and a
	// char_offset to go on. It has no config key.
	NoPartialLines bool
}
