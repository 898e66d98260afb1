package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/search"
)

// Re-exported types of the grep and find tools.
type (
	GrepInput   = search.GrepInput
	GrepResult  = search.GrepResult
	GrepDetails = search.GrepDetails
	FindInput   = search.FindInput
	FindResult  = search.FindResult
	FindDetails = search.FindDetails
)

// Grep searches file contents for a regular expression (or a literal
// string), honouring ignore files, in path then line order.
func (t *Toolset) Grep(ctx context.Context, in GrepInput) GrepResult {
	res := t.search.Grep(ctx, in)
	if t.policy.Format == policy.FormatJSON {
		res.Text = t.render(res.Text, res.Details, res.IsError, policy.Field{Name: "content", Value: res.Content})
	}
	return res
}

// Find lists the files and directories whose name (or relative path)
// matches a glob, honouring ignore files, sorted.
func (t *Toolset) Find(ctx context.Context, in FindInput) FindResult {
	res := t.search.Find(ctx, in)
	if t.policy.Format == policy.FormatJSON {
		res.Text = t.render(res.Text, res.Details, res.IsError, policy.Field{Name: "content", Value: res.Content})
	}
	return res
}
