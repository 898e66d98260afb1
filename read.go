package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/output"
)

// ReadInput is one page of a file to read: the read tool's parameters,
// named by their json tags (docs/tools.md gives defaults and bounds).
type ReadInput struct {
	// Path is the file to read, relative to the toolset's Cwd.
	Path string `json:"path" cli:"positional" param:"required" doc:"The file to read (absolute, or relative to the session's working directory)."`
	// Offset is the first line shown, 1-based; 0 is 1.
	Offset int `json:"offset,omitempty" min:"1" default:"1" doc:"First line to show, 1-based."`
	// Limit is the most lines shown; 0 takes the policy's, 2000 by
	// default.
	Limit int `json:"limit,omitempty" min:"1" ceiling:"lines" config:"read.max_lines" doc:"Most lines to show."`
	// LineNumbers prefixes every line with its number, as cat -n does.
	LineNumbers bool `json:"line_numbers,omitempty" doc:"Prefix each line with its number, \x60cat -n\x60 style."`
	// CharOffset pages within the line at Offset: the result shows that
	// line from its character CharOffset (0-based) on, as much as the
	// byte limit holds. A line too long to show whole is read this way.
	CharOffset int `json:"char_offset,omitempty" min:"0" doc:"Page within the line at offset: show it from this character (0-based) on, as much as the byte limit holds. A cut line's notice gives the value to continue from."`
}

// readEntry declares the read tool: its parameters are the fields of
// ReadInput, by their json tags.
var readEntry = entry{tool: tool{
	Name:     "read",
	Title:    "Read a file",
	ReadOnly: true,
	Describe: describe(describeRead),
}, run: handlers{registry.Run: handle((*Toolset).Read)}}

// readResult is one page of a file, or an image.
type readResult struct {
	// Text is what the model reads: the lines and the notices that say
	// what was left out and how to read on.
	Text    string      `json:"text"`
	Details ReadDetails `json:"details"`
	// Content is the file's lines as shown, without notices, line numbers
	// or cut markers (a cut line holds its first MaxLineChars
	// characters).
	Content string `json:"-"`
	// Image holds the bytes of an image (Details.Kind "image"), MimeType
	// its type.
	Image    []byte `json:"-"`
	MimeType string `json:"-"`
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
	Next []output.Call `json:"next,omitempty" doc:"The calls that show what was left out, each {\"tool\": name, ...its parameters}; following them, and the next calls their results give, reaches every byte. For a command that waits for a secret: {\"tool\": \"relay_to_user\", \"url\", \"message\"} (give the user that address; it is no tool), then the check_pid call that shows what follows."`
	// Tokens is the estimate of the tokens of the result's text as the
	// model reads it (output.EstimateTokens, which errs high).
	Tokens int `json:"tokens" doc:"Estimated tokens of the result's text as the model reads it (docs/tokens.md): counted on the high side, about 1.1–1.5 times what OpenAI's tokenizers count."`
}

// Read shows one page of a text file (at most the policy's lines and
// bytes, 2000 and 50 KiB by default, from line Offset), or an image whole.
// Paging through a big file seeks through a line index instead of
// rescanning it. A missing file, a directory, a binary file or a FIFO is
// an error that says what to use instead.
func (t *Toolset) Read(ctx context.Context, in ReadInput) (Result[ReadDetails], error) {
	if err := t.open(); err != nil {
		return Result[ReadDetails]{}, err
	}
	res, err := readFile(ctx, t.files, in)
	if err != nil {
		return Result[ReadDetails]{}, clipError(err, in.Path)
	}
	if res.Image == nil {
		res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "content", Value: res.Content})
	} else {
		res.Details.Tokens = output.EstimateTokensString(res.Text)
	}
	return res.result(), nil
}

// result is r as the API returns it.
func (r readResult) result() Result[ReadDetails] {
	return Result[ReadDetails]{Text: r.Text, Details: r.Details, Content: r.Content, Image: r.Image, MimeType: r.MimeType}
}
