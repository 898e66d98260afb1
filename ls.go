package spillway

import (
	"context"
	"fmt"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/tool"
)

// LsInput names the directory to list: the ls tool's parameters
// (tool.LsInput).
type LsInput = tool.LsInput

// LsDetails are the structured details of an ls result (tool.LsDetails).
type LsDetails = tool.LsDetails

// lsEntry declares the ls tool: its parameters are the fields of
// LsInput, by their json tags.
var lsEntry = entry{Tool: registry.Tool{
	Name:     "ls",
	Title:    "List a directory",
	ReadOnly: true,
	Describe: describe(describeLs),
	CLI: registry.CLI{
		Short: "List a directory, as the model would get it",
		Long: `ls lists a directory (default: the current one): names sorted
case-insensitively, dotfiles included, directories ending in "/" and
symlinks in "@".`,
		Example: `  spillway ls
  spillway ls ./docs --limit 50`,
	},
}, run: handle((*Toolset).Ls)}

// Ls lists a directory: names sorted case-insensitively, dotfiles
// included, directories ending in "/" and symlinks in "@". The result's
// content is the entries shown, one a line.
func (t *Toolset) Ls(ctx context.Context, in LsInput) (Result[LsDetails], error) {
	if err := check("ls", &in); err != nil {
		return Result[LsDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[LsDetails]{}, err
	}
	res, err := listDir(ctx, t.files, t.spill, in)
	if err != nil {
		return Result[LsDetails]{}, clipError(err, in.Path)
	}
	res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "entries", Value: res.Content})
	return res, nil
}

// describeLs is ls's description for the model under p: what it lists and
// the limits p puts on it.
func describeLs(p Policy) string {
	return fmt.Sprintf("List one directory (default: the working directory). Names are sorted "+
		"case-insensitively, hidden files included; directories end in `/`, symlinks in `@`. At most `limit` "+
		"entries (default %d)%s; the notice says when more exist. For a recursive listing use `find`.", p.Ls.Limit, tokenCap(" and", p.Ls.MaxTokens))
}
