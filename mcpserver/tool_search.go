package mcpserver

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/policy"
)

func init() {
	register(adapter{
		name: "grep",
		define: func(p policy.Policy) Tool {
			t := grepTool(p)
			t.OutputSchema = outputSchema(reflect.TypeFor[spillway.GrepDetails](), detailDescriptions)
			return t
		},
		add: func(s *toolServer, t Tool) { addTool(s, t, callGrep) },
	})
	register(adapter{
		name: "find",
		define: func(p policy.Policy) Tool {
			t := findTool(p)
			t.OutputSchema = outputSchema(reflect.TypeFor[spillway.FindDetails](), detailDescriptions)
			return t
		},
		add: func(s *toolServer, t Tool) { addTool(s, t, callFind) },
	})
}

func callGrep(ctx context.Context, ts *spillway.Toolset, _ *mcp.CallToolRequest, in spillway.GrepInput) result[spillway.GrepDetails] {
	r := ts.Grep(ctx, in)
	return result[spillway.GrepDetails]{Text: r.Text, Details: r.Details, IsError: r.IsError}
}

func callFind(ctx context.Context, ts *spillway.Toolset, _ *mcp.CallToolRequest, in spillway.FindInput) result[spillway.FindDetails] {
	r := ts.Find(ctx, in)
	return result[spillway.FindDetails]{Text: r.Text, Details: r.Details, IsError: r.IsError}
}
