package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/internal/search"
)

// Types of the grep and find tools.
type (
	// GrepInput is a search: Pattern (RE2, or a plain string with
	// Literal), Path, Glob, IgnoreCase, Context, OutputMode and Limit.
	GrepInput = search.GrepInput
	// GrepResult is what a search found: Text for the model, Details and
	// Content (the lines found, no notices).
	GrepResult = search.GrepResult
	// GrepDetails hold the match and file counts, whether the limit was
	// reached, the lines cut and the truncation.
	GrepDetails = search.GrepDetails
	// FindInput is a search by name: Pattern (a glob with **), Path, Type
	// and Limit.
	FindInput = search.FindInput
	// FindResult is what a find found: Text, Details and Content.
	FindResult = search.FindResult
	// FindDetails hold the count, whether the limit was reached, and the
	// truncation.
	FindDetails = search.FindDetails
)

// Grep searches file contents for a regular expression (or a literal
// string), honouring ignore files, in path then line order. No match is
// a result ("No matches found"); a bad pattern is an error.
func (t *Toolset) Grep(ctx context.Context, in GrepInput) (GrepResult, error) {
	if err := t.open(); err != nil {
		return GrepResult{}, err
	}
	res, err := t.search.Grep(ctx, in)
	if err != nil {
		return GrepResult{}, clipError(err, in.Pattern, in.Path, in.Glob)
	}
	res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "content", Value: res.Content})
	return res, nil
}

// Find lists the files and directories whose name (or relative path)
// matches a glob, honouring ignore files, sorted.
func (t *Toolset) Find(ctx context.Context, in FindInput) (FindResult, error) {
	if err := t.open(); err != nil {
		return FindResult{}, err
	}
	res, err := t.search.Find(ctx, in)
	if err != nil {
		return FindResult{}, clipError(err, in.Pattern, in.Path)
	}
	res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "content", Value: res.Content})
	return res, nil
}
