package spillway

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/surface"
	"github.com/spillway-dev/spillway/tool"
)

// A ToolCall is a call of a tool by name, with its arguments as a JSON
// object: what an MCP client sends, and what the CLI builds from its
// flags. What the call brings beside its arguments (a progress callback,
// who asks the person) is its context's CallInfo (WithCallInfo).
type ToolCall struct {
	// Name is the tool's name: bash, write_stdin, jobs, read, grep, find,
	// ls or history.
	Name string
	// Args are the parameters by name (docs/tools.md).
	Args json.RawMessage
}

// An ArgsError is a call whose arguments do not fit the tool's parameters:
// an unknown or missing parameter, a value of the wrong type or out of
// bounds, or parameters of different methods together. The MCP server
// returns it as an isError result; the CLI exits with status 2.
type ArgsError struct {
	// Tool is the name of the tool called.
	Tool string
	// Err says what does not fit, naming the parameter.
	Err error
}

func (e *ArgsError) Error() string { return e.Tool + ": " + e.Err.Error() }

func (e *ArgsError) Unwrap() error { return e.Err }

// Call runs a tool by name: its arguments are checked against the tool's
// parameters (an *ArgsError says what does not fit) and given to the
// tool's method (Toolset.Bash for bash, which hands check_pid to
// CheckJob). The MCP server
// and the CLI call the tools through it. The result's Details are the
// tool's (a BashDetails, ReadDetails, …).
func (t *Toolset) Call(ctx context.Context, c ToolCall) (res Result[any], err error) {
	// A panic of the call (a bug) is the call's error, not the end of
	// the process and of every other session.
	defer func() {
		if p := recover(); p != nil {
			res, err = Result[any]{}, panicError(c.Name, p)
		}
	}()
	name, args, lines, err := surface.Call(t.policy.Profile, c.Name, c.Args)
	if err != nil {
		return Result[any]{}, &ArgsError{Tool: name, Err: err}
	}
	e, ok := lookup(name)
	if !ok {
		return Result[any]{}, fmt.Errorf("no tool is named %q", c.Name)
	}
	in, err := registry.Decode(e.Tool, args)
	if err != nil {
		return Result[any]{}, &ArgsError{Tool: e.Name, Err: err}
	}
	if lines != (surface.Lines{}) {
		ctx = shell.WithLines(ctx, shell.Lines(lines))
	}
	r, err := e.run.call(t, ctx, in)
	r.Input = e.run.value(in)
	return r, err
}

// CallInfo is what a call brings beside its input: the caller's hooks
// for this one call (a progress callback, who asks the person about a
// command or a secret prompt, the command's stdin), in its context
// (tool.CallInfo).
type CallInfo = tool.CallInfo

// WithCallInfo returns ctx carrying c: the tool calls made with it, by
// their methods or by Call, use c's hooks. The session's own hooks are
// Options'.
func WithCallInfo(ctx context.Context, c CallInfo) context.Context {
	return tool.WithCallInfo(ctx, c)
}

// check is the one check of a tool's input, whoever calls its method
// (Go, the MCP server, the CLI): the bounds its fields' tags state, then
// its own Validate. Each tool's method runs it first; in points to the
// method's input, which it holds to the ceilings.
func check(name string, in any) error {
	tl, _ := registry.Lookup(name)
	if err := registry.Check(tl, in); err != nil {
		return &ArgsError{Tool: name, Err: err}
	}
	return nil
}

// A handler runs a tool: it takes a pointer to the tool's input and
// returns the result with its details as an any.
type handler struct {
	input    func() fields.Type
	details  func() fields.Type
	newInput func() any
	call     func(t *Toolset, ctx context.Context, in any) (Result[any], error)
	// value is the input a pointer to it points to.
	value func(in any) any
}

// handle makes the handler of a Toolset method, as mcp.AddTool makes one
// of a typed function: the method's input is the tool's declaration.
func handle[In, D any](method func(*Toolset, context.Context, In) (Result[D], error)) handler {
	return handler{
		input:    func() fields.Type { return fields.Of[In]("json") },
		details:  func() fields.Type { return fields.Of[D]("json") },
		newInput: func() any { return new(In) },
		call: func(t *Toolset, ctx context.Context, in any) (Result[any], error) {
			r, err := method(t, ctx, *in.(*In))
			return anyResult(r), err
		},
		value: func(in any) any { return *in.(*In) },
	}
}

// An entry of the table is a tool, declared once: its name, description
// and parameters, and the handler that runs it.
type entry struct {
	registry.Tool
	run handler
	// ceilings, by parameter, are the lower ceilings (0: none) the policy
	// in force puts on an integer parameter beside its own.
	ceilings map[string]func(Policy) int64
}

// declaration is e's tool with its Go input and details, as the registry
// gives it to the packages that describe the tools.
func (e entry) declaration() registry.Tool {
	t := e.Tool
	t.Input = e.run.input()
	t.Details = e.run.details
	t.NewInput = e.run.newInput
	t.Params = registry.Params(fields.Of[Policy]("toml"), t.Input, paramConsts)
	for i, p := range t.Params {
		if c, ok := e.ceilings[p.Name]; ok {
			t.Params[i].PolicyCeiling = func(p any) int64 { return c(p.(Policy)) }
		}
	}
	return t
}

func lookup(name string) (entry, bool) {
	for _, e := range declared() {
		if e.Name == name {
			return e, true
		}
	}
	return entry{}, false
}

// declared is the table with each tool's declaration made (its
// parameters read from its input's tags), on first use: not at init, so
// that a process that calls no tool (version, help) or one does not walk
// every input and details type as it starts.
var declared = sync.OnceValue(func() []entry {
	es := slices.Clone(table)
	for i := range es {
		es[i].Tool = es[i].declaration()
	}
	return es
})

// decls are the declarations the registry gives the packages that
// describe the tools.
var decls = sync.OnceValue(func() []registry.Tool {
	es := declared()
	ts := make([]registry.Tool, len(es))
	for i, e := range es {
		ts[i] = e.Tool
	}
	return ts
})

func init() { registry.Register(decls) }

// panicError is the error of a call that panicked; the stack goes to the
// log (slog's default logger), not to the model.
func panicError(name string, p any) error {
	slog.Error("a tool call panicked", "tool", name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
	return fmt.Errorf("%s: internal error (a bug in spillway; the session goes on, and the stack is in the server's log): %v", name, p)
}
