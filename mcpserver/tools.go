package mcpserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway"
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
// table (spillway.Tools), in its order. The descriptions state the limits
// p applies.
func Tools(p spillway.Policy) []Tool {
	p = p.WithinBudget() // the limits the toolsets apply
	var tools []Tool
	all := spillway.Tools()
	// Under a peer system's profile, its parameters are listed beside
	// ours, and its names for our tools are tools too.
	for i, t := range all {
		if extra := spillway.PeerParams(p.Profile, t.Name); len(extra) > 0 {
			all[i].Params = append(slices.Clone(t.Params), extra...)
		}
	}
	for alias, name := range spillway.PeerTools(p.Profile) {
		if i := slices.IndexFunc(all, func(t spillway.Tool) bool { return t.Name == name }); i >= 0 {
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
			OutputSchema: outputSchema(t.Details, spillway.DetailDoc),
			ReadOnly:     t.ReadOnly,
		})
	}
	return tools
}

// inputSchema is the JSON schema of a tool's arguments. It has no
// "default" keys: a client would apply them and override the policy, so
// the default the policy gives is stated in the description instead.
func inputSchema(t spillway.Tool, p spillway.Policy) object {
	o := object{Closed: true}
	for _, prm := range t.Params {
		s := map[string]any{"description": ParamDescription(prm, p)}
		switch prm.Type {
		case spillway.String:
			s["type"] = "string"
			if len(prm.Enum) > 0 {
				s["enum"] = prm.Enum
			}
		case spillway.Bool:
			s["type"] = "boolean"
		case spillway.Int, spillway.Millis:
			s["type"] = "integer"
			s["minimum"] = prm.Min
			if prm.Max != 0 {
				s["maximum"] = prm.Max
			}
		case spillway.StringList:
			s["type"] = "array"
			s["items"] = map[string]any{"type": "string"}
		case spillway.StringMap:
			s["type"] = "object"
			s["additionalProperties"] = map[string]any{"type": "string"}
		}
		o.Props = append(o.Props, property{prm.Name, s})
		if prm.Required {
			o.Required = append(o.Required, prm.Name)
		}
	}
	return o
}

// ParamDescription is a parameter's doc with the default the policy p
// gives it and the ceiling it is held to, as the input schemas state them.
func ParamDescription(prm spillway.Param, p spillway.Policy) string {
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
