package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
)

func init() {
	register(toolAdapter("grep", grepTool, callGrep))
	register(toolAdapter("find", findTool, callFind))
}

func callGrep(ctx context.Context, ts *spillway.Toolset, _ *mcp.CallToolRequest, in spillway.GrepInput) (result[spillway.GrepDetails], error) {
	r, err := ts.Grep(ctx, in)
	return result[spillway.GrepDetails]{Text: r.Text, Details: r.Details}, err
}

func callFind(ctx context.Context, ts *spillway.Toolset, _ *mcp.CallToolRequest, in spillway.FindInput) (result[spillway.FindDetails], error) {
	r, err := ts.Find(ctx, in)
	return result[spillway.FindDetails]{Text: r.Text, Details: r.Details}, err
}
