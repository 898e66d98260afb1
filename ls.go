package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/output"
)

// LsInput names the directory to list: the ls tool's parameters, named
// by their json tags (docs/tools.md gives defaults and bounds).
type LsInput struct {
	// Path is the directory to list, relative to the toolset's Cwd; ""
	// is the Cwd.
	Path string `json:"path,omitempty"`
	// Limit is the most entries shown; 0 takes the policy's, 500 by
	// default.
	Limit int `json:"limit,omitempty"`
}

// lsEntry declares the ls tool: its parameters are the fields of
// LsInput, by their json tags.
var lsEntry = entry{tool: tool{
	Name:     "ls",
	Title:    "List a directory",
	ReadOnly: true,
	Describe: describeLs,
	Params: []param{
		{Name: "path", Type: registry.String, Positional: true,
			Doc: "Directory to list (default: the working directory)."},
		{Name: "limit", Type: registry.Int, Min: 1, Ceiling: linesCeiling, Config: "ls.limit",
			Default: func(p Policy) any { return p.Ls.Limit },
			Doc:     "Most entries to return."},
	},
}, run: handlers{registry.Run: handle((*Toolset).Ls)}}

// lsResult is a directory listing.
type lsResult struct {
	// Text is what the model reads: the entries, one a line, and the
	// notices.
	Text    string    `json:"text"`
	Details LsDetails `json:"details"`
	// Entries are the names shown, in order, a directory's ending in "/"
	// and a symlink's in "@".
	Entries []string `json:"-"`
}

// LsDetails are the structured details of an ls result.
type LsDetails struct {
	// Count is the number of entries shown.
	Count int `json:"count"`
	// EntryLimitReached: the directory holds more entries than the limit.
	EntryLimitReached bool `json:"entry_limit_reached"`
	// Truncation counts entries as lines.
	Truncation output.Truncation `json:"truncation"`
	// FullOutputPath is the spill file that holds the listing up to the
	// limit, when the byte limit cut it.
	FullOutputPath string `json:"full_output_path,omitempty"`
	// Next holds the calls that show what was left out: the rest of the
	// listing in the spill file, and an ls with a limit that takes every
	// entry.
	Next []output.Call `json:"next,omitempty"`
	// Tokens is the estimate of the tokens of the result's text as the
	// model reads it (output.EstimateTokens, which errs high).
	Tokens int `json:"tokens"`
}

// Ls lists a directory: names sorted case-insensitively, dotfiles
// included, directories ending in "/" and symlinks in "@".
func (t *Toolset) Ls(ctx context.Context, in LsInput) (Result[LsDetails], error) {
	if err := t.open(); err != nil {
		return Result[LsDetails]{}, err
	}
	res, err := listDir(ctx, t.files, t.spill, in)
	if err != nil {
		return Result[LsDetails]{}, clipError(err, in.Path)
	}
	res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "entries", Value: entryList(res.Entries)})
	return res.result(), nil
}

// result is r as the API returns it: its entries one a line as the
// content.
func (r lsResult) result() Result[LsDetails] {
	return Result[LsDetails]{Text: r.Text, Details: r.Details, Content: entryList(r.Entries)}
}
