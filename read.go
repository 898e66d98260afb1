package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/internal/policy"
)

// Types of the read tool.
type (
	ReadInput   = files.ReadInput
	ReadResult  = files.ReadResult
	ReadDetails = files.ReadDetails
)

// Read shows one page of a text file (at most the policy's lines and
// bytes, 2000 and 50 KiB by default, from line Offset), or an image whole.
// Paging through a big file seeks through a line index instead of
// rescanning it.
func (t *Toolset) Read(ctx context.Context, in ReadInput) ReadResult {
	res := t.files.Read(ctx, in)
	if t.policy.Format == policy.FormatJSON && res.Image == nil {
		res.Text = t.render(res.Text, res.Details, res.IsError, policy.Field{Name: "content", Value: res.Content})
	}
	return res
}
