package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
)

// A result is what one call of a tool returns, whatever the tool.
type result[D any] struct {
	Text    string
	Details D
	IsError bool
	// Image, when not nil, is returned as MCP image content.
	Image    []byte
	MimeType string
}

// A callFunc runs one call of a tool on the session's toolset. ctx ends
// when the client cancels the call, goes away, or the session ends. The
// error says the call could not be made; the model reads it as an isError
// result.
type callFunc[In, D any] func(ctx context.Context, ts *spillway.Toolset, req *mcp.CallToolRequest, in In) (result[D], error)

// addTool adds tool t to s. The arguments are checked against
// t.InputSchema (an invalid call is an isError result that says what is
// wrong); the result is shaped by toolResult (its details schema is
// derived from their Go type, so they always match it).
func addTool[In, D any](s *toolServer, t Tool, call callFunc[In, D]) {
	schema := t.InputSchema.(object)
	s.AddTool(t.MCP(s.typed), func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := decodeArgs(req.Params.Arguments, schema, &in); err != nil {
			return errorResult(fmt.Errorf("%s: %v", t.Name, err)), nil
		}
		sess, client, err := s.session(req)
		if err != nil {
			return errorResult(err), nil
		}
		ts, callCtx, finish, err := sess.begin(ctx, client)
		if err != nil {
			return errorResult(err), nil
		}
		defer finish()
		r, err := call(callCtx, ts, req, in)
		if err != nil {
			return s.failed(err), nil
		}
		details, err := json.Marshal(r.Details)
		if err != nil {
			return nil, fmt.Errorf("%s: encoding the details: %w", t.Name, err)
		}
		return toolResult(r, details, s.typed), nil
	})
}

// MCP returns t as an MCP tool definition (the shape of tools/list). Only
// typed results have an outputSchema: a tool that declares one must return
// structuredContent, which most clients then show the model instead of
// the text.
func (t Tool) MCP(typed bool) *mcp.Tool {
	mt := &mcp.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: t.InputSchema,
		Annotations: annotations(t),
	}
	if typed && t.OutputSchema != nil {
		mt.OutputSchema = typedOutputSchema(t.OutputSchema)
	}
	return mt
}

func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}
}

func annotations(t Tool) *mcp.ToolAnnotations {
	no, yes := false, true
	if t.ReadOnly {
		return &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}
	}
	// bash can do anything a shell can.
	return &mcp.ToolAnnotations{Title: t.Title, DestructiveHint: &yes, OpenWorldHint: &yes}
}
