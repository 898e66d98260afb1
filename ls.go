package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/internal/render"
)

// Types of the ls tool.
type (
	// LsInput names the directory (Path) and the most entries (Limit).
	LsInput = files.LsInput
	// LsResult is a listing: Text for the model, Details and Entries (the
	// names shown).
	LsResult = files.LsResult
	// LsDetails hold the count, whether the limit was reached, and the
	// truncation.
	LsDetails = files.LsDetails
)

// Ls lists a directory: names sorted case-insensitively, dotfiles
// included, directories ending in "/" and symlinks in "@".
func (t *Toolset) Ls(ctx context.Context, in LsInput) (LsResult, error) {
	if err := t.open(); err != nil {
		return LsResult{}, err
	}
	res, err := t.files.Ls(ctx, in)
	if err != nil {
		return LsResult{}, clipError(err, in.Path)
	}
	res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "entries", Value: entryList(res.Entries)})
	return res, nil
}
