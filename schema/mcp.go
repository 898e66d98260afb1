package schema

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

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

func annotations(t Tool) *mcp.ToolAnnotations {
	no, yes := false, true
	if t.ReadOnly {
		return &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}
	}
	// bash can do anything a shell can.
	return &mcp.ToolAnnotations{Title: t.Title, DestructiveHint: &yes, OpenWorldHint: &yes}
}

// typedOutputSchema is the outputSchema of a typed result whose details
// follow the schema details.
func typedOutputSchema(details any) object {
	return object{Required: []string{"text", "details"}, Props: []property{
		{"text", str("The text the model reads: the same text as the result's text content.")},
		{"details", details},
	}}
}
