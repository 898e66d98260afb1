package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/files"
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
	return t.files.Ls(ctx, in)
}
