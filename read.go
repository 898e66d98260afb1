package spillway

import (
	"context"
	"fmt"

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
	CLI: registry.CLI{
		Short: "Print one page of a file, as the model would get it",
		Long: `read prints one page of a text file, from line --offset, with a notice
that says how to continue. Images are not printed; --json prints their
details. Binary files, directories, FIFOs and devices are refused.`,
		Example: `  spillway read README.md
  spillway read main.go --offset 120 --limit 40`,
	},
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
	if t.rulesNow() != nil || len(t.secretDirs) > 0 {
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

// describeRead is read's description for the model under p: what it does, the
// limits p puts on it and how to get at what it cut.
func describeRead(p Policy) string {
	r := p.Read
	return fmt.Sprintf("Read a text file, or an image. Returns at most %d lines or %s%s, whichever comes first, "+
		"starting at line `offset` (1-based, default 1). When more remains, the text ends with "+
		"`[Showing lines S-E of N. Use offset=E+1 to continue]`: call again with that offset to page on. "+
		"`offset` is exact on files of any size, so jump straight to a line that grep or a compiler reported. "+
		"%s"+
		"`line_numbers: true` prefixes `cat -n` style numbers. "+
		"Reads the spill files that other tools' notices name. "+
		"Images (PNG, JPEG, GIF, WebP, up to 5 MB) come back as images. "+
		"A directory is an error: use `ls`. Other binary files are refused: inspect them with `bash` (`xxd FILE | head`, `strings FILE`).",
		r.MaxLines, size(r.MaxBytes), tokenCap(" or", r.MaxTokens), lineCap("Lines over %d chars are cut; the notice gives the `char_offset` that reads on from the cut. ", r.MaxLineChars)+wholeLine(r))
}

// wholeLine says what a page does with a first line over the byte limit,
// when the policy shows none of it.
func wholeLine(r ReadPolicy) string {
	if !r.NoPartialLines {
		return ""
	}
	return fmt.Sprintf("A line over %s is not shown; the notice gives a `bash` command that prints its start. ", size(r.MaxBytes))
}
