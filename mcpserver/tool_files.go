package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/files"
)

func init() {
	register(toolAdapter("read", readTool, callRead))
	register(toolAdapter("ls", lsTool, callLs))
}

// callRead reads a file; an image comes back as image content.
func callRead(ctx context.Context, ts *spillway.Toolset, _ *mcp.CallToolRequest, in spillway.ReadInput) (result[spillway.ReadDetails], error) {
	r, err := ts.Read(ctx, in)
	res := result[spillway.ReadDetails]{Text: r.Text, Details: r.Details}
	if r.Details.Kind == files.KindImage && r.Image != nil {
		res.Image, res.MimeType = r.Image, r.MimeType
	}
	return res, err
}

func callLs(ctx context.Context, ts *spillway.Toolset, _ *mcp.CallToolRequest, in spillway.LsInput) (result[spillway.LsDetails], error) {
	r, err := ts.Ls(ctx, in)
	return result[spillway.LsDetails]{Text: r.Text, Details: r.Details}, err
}
