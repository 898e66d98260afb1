package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/internal/policy"
)

// Types of the ls tool.
type (
	LsInput   = files.LsInput
	LsResult  = files.LsResult
	LsDetails = files.LsDetails
)

// Ls lists a directory: names sorted case-insensitively, dotfiles
// included, directories ending in "/" and symlinks in "@".
func (t *Toolset) Ls(ctx context.Context, in LsInput) LsResult {
	res := t.files.Ls(ctx, in)
	if t.policy.Format == policy.FormatJSON {
		res.Text = t.render(res.Text, res.Details, res.IsError, policy.Field{Name: "entries", Value: entryList(res.Entries)})
	}
	return res
}
