// Package schema gives spillway's tool definitions in the shapes model
// APIs take them: MCP's tools/list, the Anthropic Messages API's tools and
// the OpenAI Chat Completions API's function tools. Each is made from a
// spillway.Policy, whose limits the descriptions state, and from the one
// table that declares the tools, so an agent that calls the library
// through its own provider SDK gives its model the same tools the MCP
// server lists:
//
//	ts, _ := spillway.New(spillway.Options{Policy: p})
//	tools := schema.Anthropic(p) // give these to the model
//	// for each tool_use block the model sends:
//	r, err := ts.Call(ctx, spillway.ToolCall{Name: name, Args: input})
package schema

import (
	"fmt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/surface"
)

// A Tool is one tool as a model sees it: its name, a description written
// for the model, and the JSON schemas of its input and of its details
// (in MCP under _meta, and in structuredContent of typed results).
type Tool struct {
	Name        string
	Title       string
	Description string
	// InputSchema and OutputSchema marshal to JSON schema objects.
	InputSchema  any
	OutputSchema any
	// ReadOnly is true for the tools that never change anything.
	ReadOnly bool
}

// Tools returns the tool definitions for policy p, made from the tools
// table, in its order. The descriptions state the limits
// p applies.
func Tools(p spillway.Policy) []Tool {
	p = p.WithinBudget() // the limits the toolsets apply
	var tools []Tool
	all := registry.Tools()
	// Under a peer system's profile, its parameters are listed beside
	// ours, and its names for our tools are tools too.
	for i, t := range all {
		if extra := surface.Params(p.Profile, t.Name); len(extra) > 0 {
			all[i].Params = slices.Clone(t.Params)
			for _, e := range extra {
				all[i].Params = append(all[i].Params, registry.Param{Name: e.Name, Type: e.Type, Min: e.Min, Doc: e.Doc})
			}
		}
	}
	for alias, name := range surface.Tools(p.Profile) {
		if i := slices.IndexFunc(all, func(t registry.Tool) bool { return t.Name == name }); i >= 0 {
			t := all[i]
			t.Name = alias
			all = append(all, t)
		}
	}
	for _, t := range all {
		tools = append(tools, Tool{
			Name:         t.Name,
			Title:        t.Title,
			Description:  t.Describe(p),
			InputSchema:  inputSchema(t, p),
			OutputSchema: outputSchema(t.Details()),
			ReadOnly:     t.ReadOnly,
		})
	}
	return tools
}

// inputSchema is the JSON schema of a tool's arguments. It has no
// "default" keys: a client would apply them and override the policy, so
// the default the policy gives is stated in the description instead.
func inputSchema(t registry.Tool, p spillway.Policy) object {
	o := object{Closed: true}
	for _, prm := range t.Params {
		s := map[string]any{"description": paramDescription(prm, p)}
		switch prm.Type {
		case registry.String:
			s["type"] = "string"
			if len(prm.Enum) > 0 {
				s["enum"] = prm.Enum
			}
		case registry.Bool:
			s["type"] = "boolean"
		case registry.Int, registry.Millis:
			s["type"] = "integer"
			s["minimum"] = prm.Min
			if prm.Max != 0 {
				s["maximum"] = prm.Max
			}
		case registry.StringList:
			s["type"] = "array"
			s["items"] = map[string]any{"type": "string"}
		case registry.StringMap:
			s["type"] = "object"
			s["additionalProperties"] = map[string]any{"type": "string"}
		case registry.ObjectList:
			s["type"] = "array"
			s["items"] = itemSchema(prm.Items)
		}
		o.Props = append(o.Props, property{prm.Name, s})
		if prm.Required {
			o.Required = append(o.Required, prm.Name)
		}
	}
	return o
}

// paramDescription is a parameter's doc with the default the policy p
// gives it and the ceiling it is held to, as the input schemas state them.
func paramDescription(prm registry.Param, p spillway.Policy) string {
	var b strings.Builder
	b.WriteString(prm.Doc)
	if prm.Default != nil {
		fmt.Fprintf(&b, " Default: %v.", prm.Default(p))
	}
	if c := prm.CeilingUnder(p); c != 0 {
		fmt.Fprintf(&b, " At most %d.", c)
	}
	return b.String()
}

// MCP returns the tools as MCP's tools/list result holds them, with their
// annotations, and with typed the output schemas of typed results.
func MCP(p spillway.Policy, typed bool) []*mcp.Tool {
	var out []*mcp.Tool
	for _, t := range Tools(p) {
		out = append(out, t.MCP(typed))
	}
	return out
}

// An AnthropicTool is a tool as the Anthropic Messages API's "tools" array
// takes it.
type AnthropicTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	InputSchema any    `json:"input_schema"`
}

// Anthropic returns the tools for the Anthropic Messages API.
func Anthropic(p spillway.Policy) []AnthropicTool {
	out := []AnthropicTool{}
	for _, t := range Tools(p) {
		out = append(out, AnthropicTool{t.Name, t.Description, t.InputSchema})
	}
	return out
}

// An OpenAITool is a function tool as the OpenAI Chat Completions API's
// "tools" array takes it.
type OpenAITool struct {
	Type     string         `json:"type"` // "function"
	Function OpenAIFunction `json:"function"`
}

// An OpenAIFunction is the function an OpenAITool describes.
type OpenAIFunction struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Parameters  any    `json:"parameters"`
}

// OpenAI returns the tools for the OpenAI Chat Completions API.
func OpenAI(p spillway.Policy) []OpenAITool {
	out := []OpenAITool{}
	for _, t := range Tools(p) {
		out = append(out, OpenAITool{"function", OpenAIFunction{t.Name, t.Description, t.InputSchema}})
	}
	return out
}

// Summary says in one phrase which tools spillway serves, e.g. "eight
// tools: bash, read, grep, find, ls, and write_stdin, jobs, history for
// background commands and past calls", for the prose that introduces them.
func Summary() string { return registry.Summary(registry.Tools()) }

// itemSchema is the schema of each object of a list parameter.
func itemSchema(items []registry.Param) map[string]any {
	props := map[string]any{}
	var required []string
	for _, it := range items {
		s := map[string]any{"description": it.Doc}
		switch it.Type {
		case registry.String:
			s["type"] = "string"
		case registry.Bool:
			s["type"] = "boolean"
		case registry.Int, registry.Millis:
			s["type"] = "integer"
		}
		props[it.Name] = s
		if it.Required {
			required = append(required, it.Name)
		}
	}
	o := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}
