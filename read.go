package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/output"
)

// Types of the read tool.
type (
	// ReadInput names the file (Path) and the page: Offset (first line,
	// 1-based), Limit (lines), LineNumbers.
	ReadInput = files.ReadInput
	// ReadResult is one page: Text for the model, Details, Content (the
	// lines shown, no notices), or Image and MimeType for an image.
	ReadResult = files.ReadResult
	// ReadDetails hold the path, kind, MIME type, offset, lines shown,
	// total lines, lines cut and the truncation.
	ReadDetails = files.ReadDetails
)

// Read shows one page of a text file (at most the policy's lines and
// bytes, 2000 and 50 KiB by default, from line Offset), or an image whole.
// Paging through a big file seeks through a line index instead of
// rescanning it. A missing file, a directory, a binary file or a FIFO is
// an error that says what to use instead.
func (t *Toolset) Read(ctx context.Context, in ReadInput) (ReadResult, error) {
	if err := t.open(); err != nil {
		return ReadResult{}, err
	}
	res, err := t.files.Read(ctx, in)
	if err != nil {
		return ReadResult{}, clipError(err, in.Path)
	}
	if res.Image == nil {
		res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "content", Value: res.Content})
	} else {
		res.Details.Tokens = output.EstimateTokensString(res.Text)
	}
	return res, nil
}
