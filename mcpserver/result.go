package mcpserver

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
)

// DetailsMetaKey is the key, under a tool result's _meta, of the tool's
// details (exit code, truncation, spill paths, ...), for programs that want
// them. The model never sees _meta, so the details cost it nothing.
const DetailsMetaKey = "dev.spillway/details"

// The result shape. Claude Code, Codex, opencode and VS Code give the model
// only structuredContent when a result has one (docs/mcp.md cites each), so
// by default a result has none: its text content is what every client
// shows, plain and once, and images stay image blocks. Typed results
// (Config.TypedResults) add an outputSchema and a structuredContent holding
// {"text", "details"}, for programs that validate results; clients like
// those above then show the model that JSON, the text escaped inside it.

// typedContent is the structuredContent of a typed result, in the shape
// `spillway TOOL --json` prints (is_error is the result's own isError).
type typedContent struct {
	Text    string          `json:"text"`
	Details json.RawMessage `json:"details"`
}

// toolResult builds the MCP result of r; details is r.Details as JSON.
// With links, a cut result also links to its spill files.
func toolResult(r spillway.Result[any], details json.RawMessage, typed, links bool) *mcp.CallToolResult {
	var content []mcp.Content
	if r.Image != nil {
		content = append(content, &mcp.ImageContent{Data: r.Image, MIMEType: r.MimeType})
	}
	if r.Text != "" || len(content) == 0 {
		content = append(content, &mcp.TextContent{Text: r.Text})
	}
	if links {
		content = append(content, spillLinks(details)...)
	}
	res := &mcp.CallToolResult{
		Content: content,
		IsError: r.IsError,
		Meta:    mcp.Meta{DetailsMetaKey: details},
	}
	if typed {
		res.StructuredContent = typedContent{Text: r.Text, Details: details}
	}
	return res
}
