// Package registry declares what a tool is: its name, its parameters
// with their types, bounds and defaults, the Go inputs of its methods and
// the type of its details. A tool's parameters are read from the tags of
// its Go inputs' fields (Params), its details' docs from the doc tags of
// its details' fields. The root package declares the table of spillway's
// tools in these terms, with a handler for each method, and registers it
// here; the packages that describe the tools to someone else
// (the schemas for MCP, Anthropic and OpenAI, the CLI's commands and
// flags, docs/tools.md) read it from here, so the root exports none of
// this machinery.
//
// Defaults and descriptions depend on the policy in force, a
// spillway.Policy, which this package cannot name: they take it as an
// any, and the declaration names its type (Params).
package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway/internal/fields"
)

// A ParamType is the type of a tool parameter, as a model sends it.
type ParamType int

// Types of parameters.
const (
	String     ParamType = iota + 1 // a string
	Int                             // an integer
	Bool                            // true or false
	Millis                          // an integer of milliseconds; a time.Duration in Go
	StringList                      // a list of strings
	StringMap                       // an object of string values
	ObjectList                      // a list of objects whose fields are Items (edit's edits)
)

// A Param is one parameter of a tool, as Params reads it from the tags
// of the field that declares it.
type Param struct {
	// Name is the parameter's name in MCP calls and docs (snake_case),
	// its json tag in the Go input, and, in kebab case, its CLI flag.
	Name string
	Type ParamType
	// Doc says what the parameter does, for a model and for a person.
	Doc string
	// Default returns the value used when the parameter is not given,
	// under the policy in force; nil when there is none to state.
	Default func(any) any
	// Config names the config key that sets the default ("grep.limit"),
	// "" when no key does.
	Config string
	// Min is the least value of an Int or Millis parameter.
	Min int64
	// Max, when not 0, is the greatest value accepted: more is an error.
	Max int64
	// Ceiling, when not 0, holds larger values to it (not an error).
	Ceiling int64
	// OrInt String parameters also take an integer, as its decimal
	// string (diff_with: a history id or "last").
	OrInt bool
	// PolicyCeiling, when set, returns a lower ceiling that the policy in
	// force puts on the value (0: none), as the MCP server's bound on a
	// call's wait does on bash's timeout.
	PolicyCeiling func(any) int64
	// Enum lists the values a String parameter may take.
	Enum []string
	// Required parameters must be given.
	Required bool
	// Positional parameters are CLI arguments rather than flags, in the
	// order of the table; Short is a one-letter CLI flag.
	Positional bool
	Short      string
	// SessionOnly parameters act on what an earlier call of the same
	// session left (a job, a named shell, a run to compare with): a
	// one-shot CLI command is a session of its own, so the CLI refuses
	// them.
	SessionOnly bool
	// Items, for an ObjectList, are the fields of each object, declared
	// by the tags of the element struct's fields as parameters are.
	Items []Param
	// field is the parameter's field in the tool's Go input.
	field fields.Field
}

// A Tool is one tool: its name, what it does, and its parameters.
type Tool struct {
	Name  string
	Title string
	// ReadOnly tools never change anything.
	ReadOnly bool
	// MCPOnly tools are not CLI commands: history has nothing to show in
	// a one-shot command's session.
	MCPOnly bool
	// Describe says, for a model, what the tool does and the limits the
	// policy p puts on it.
	Describe func(p any) string
	// CLI is the tool's command for a person.
	CLI CLI
	// Notes, when the tool's input chooses between things to do (bash's
	// check_pid, history's id), say which parameters go with which, for
	// docs/tools.md; the input's Validate holds a call to them.
	Notes  string
	Params []Param
	// Input is the tool's Go input, whose fields' json tags name the
	// parameters; NewInput returns a pointer to a new zero value of it.
	Input    fields.Type
	NewInput func() any
	// Details describes the type of the tool's details: their schema is
	// derived from it. It is read when a schema or docs/tools.md is
	// written, not when a CLI command starts.
	Details func() fields.Type
}

// Param returns the parameter of t named name.
func (t Tool) Param(name string) (Param, bool) {
	i := slices.IndexFunc(t.Params, func(p Param) bool { return p.Name == name })
	if i < 0 {
		return Param{}, false
	}
	return t.Params[i], true
}

// Bounds states the values p takes ("at least 1", "0 to 100", "one of
// any, file, dir"), "" when any value of its type does.
func (p Param) Bounds() string {
	switch {
	case len(p.Enum) > 0:
		return "one of " + strings.Join(p.Enum, ", ")
	case p.Type != Int && p.Type != Millis:
		return ""
	case p.Max != 0:
		return fmt.Sprintf("%d to %d", p.Min, p.Max)
	case p.Ceiling != 0:
		return fmt.Sprintf("at least %d; more is held to %d", p.Min, p.Ceiling)
	}
	return fmt.Sprintf("at least %d", p.Min)
}

// CeilingUnder is the ceiling of the parameter under the policy p: the
// lower of Ceiling and what p puts on it; 0 when there is none.
func (p Param) CeilingUnder(pol any) int64 {
	c := p.Ceiling
	if p.PolicyCeiling != nil {
		if pc := p.PolicyCeiling(pol); pc > 0 && (c == 0 || pc < c) {
			c = pc
		}
	}
	return c
}

// New returns a pointer to a new zero value of t's Go input.
func (t Tool) New() any { return t.NewInput() }

// table makes the root's table of tools, registered once, at init.
var table = func() []Tool { return nil }

// Register records how to make the table of tools. The root package
// calls it once, at init; it is called at the first look, so that a
// process pays for reading the inputs' tags only when it uses them.
func Register(tools func() []Tool) { table = tools }

// Tools returns the registered tools, in the table's order.
func Tools() []Tool { return slices.Clone(table()) }

// Lookup returns the registered tool named name.
func Lookup(name string) (Tool, bool) {
	tools := table()
	i := slices.IndexFunc(tools, func(t Tool) bool { return t.Name == name })
	if i < 0 {
		return Tool{}, false
	}
	return tools[i], true
}

// String names a parameter type as docs/tools.md does.
func (t ParamType) String() string {
	switch t {
	case String:
		return "string"
	case Int:
		return "integer"
	case Bool:
		return "boolean"
	case Millis:
		return "integer (ms)"
	case StringList:
		return "string list"
	case StringMap:
		return "object of strings"
	case ObjectList:
		return "list of objects"
	}
	return fmt.Sprintf("ParamType(%d)", int(t))
}
