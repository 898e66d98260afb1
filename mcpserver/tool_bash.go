package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
)

func init() {
	register(toolAdapter("bash", bashTool, callBash))
}

func callBash(ctx context.Context, ts *spillway.Toolset, req *mcp.CallToolRequest, in spillway.BashInput) result[spillway.BashDetails] {
	in.Progress = nil // never from the client
	if token := req.Params.GetProgressToken(); token != nil {
		p := newProgressReporter(ctx, req.Session, token)
		defer p.stop()
		in.Progress = p.report
	}
	r := ts.Bash(ctx, in)
	return result[spillway.BashDetails]{Text: r.Text, Details: r.Details, IsError: r.IsError}
}
