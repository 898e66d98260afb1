package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// ReadInput is one page of a file to read: the read tool's parameters
// (tool.ReadInput).
type ReadInput = tool.ReadInput

// ReadDetails are the structured details of a read result
// (tool.ReadDetails).
type ReadDetails = tool.ReadDetails

// readEntry declares the read tool: its parameters are the fields of
// ReadInput, by their json tags.
var readEntry = entry{Tool: registry.Tool{
	Name:     "read",
	Title:    "Read a file",
	ReadOnly: true,
	Describe: describe(describeRead),
}, run: handle((*Toolset).Read)}

// Read shows one page of a text file (at most the policy's lines and
// bytes, 2000 and 50 KiB by default, from line Offset), or an image whole.
// Paging through a big file seeks through a line index instead of
// rescanning it. A missing file, a directory, a binary file or a FIFO is
// an error that says what to use instead.
func (t *Toolset) Read(ctx context.Context, in ReadInput) (Result[ReadDetails], error) {
	if err := check("read", &in); err != nil {
		return Result[ReadDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[ReadDetails]{}, err
	}
	if t.rulesNow() != nil {
		if r := t.decideFiles(ctx, "read", []fileAccess{{path: in.Path, kind: "Read"}}); r != nil {
			return Result[ReadDetails]{Text: r.Text, IsError: true}, nil
		}
	}
	res, err := readFile(ctx, t.files, in)
	if err != nil {
		return Result[ReadDetails]{}, clipError(err, in.Path)
	}
	// What the session has seen: edit, write and apply_patch refuse to
	// overwrite it once it changes.
	if n := t.noteRead(res.Details.Path); n != "" && res.Image == nil {
		res.Text += "\n" + n
	}
	if res.Image == nil {
		res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "content", Value: res.Content})
	} else {
		res.Details.Tokens = output.EstimateTokensString(res.Text)
	}
	return res, nil
}
