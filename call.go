package spillway

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/surface"
	"github.com/spillway-dev/spillway/tool"
)

// A ToolCall is a call of a tool by name, with its arguments as a JSON
// object: what an MCP client sends, and what the CLI builds from its
// flags.
type ToolCall struct {
	// Name is the tool's name: bash, write_stdin, jobs, read, grep, find,
	// ls or history.
	Name string
	// Args are the parameters by name (docs/tools.md).
	Args json.RawMessage
	// Progress, for a bash command, receives the bytes and lines so far,
	// both streams together, about once a second.
	Progress func(bytes, lines int64)
	// Asker, for a bash command, asks the person about a command a rule
	// holds for approval, in place of Options.Asker.
	Asker func(ctx context.Context, command, cwd string, parts []RulePart) (answer string, err error)
	// URLAsker, for a bash command that meets a secret prompt, shows the
	// person the address of the page where they answer it, with a
	// message, and reports whether they agreed to open it (MCP's
	// URL-mode elicitation); the call then waits, within its timeout, for
	// their answer, and the result leads with "[the user answered the
	// password prompt]" or "[the user cancelled]". id names the page;
	// URLDone(id) follows once it was answered or closed. Without one the
	// result gives the address for the model to relay.
	URLAsker tool.URLAsker
	// Input, for a bash command run without stdin or tty, is the file the
	// command reads as its stdin instead of /dev/null (BashInput.Input).
	Input *os.File
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
// method they ask for (bash's check_pid goes to CheckJob). The MCP server
// and the CLI call the tools through it. The result's Details are the
// tool's (a BashDetails, ReadDetails, …).
func (t *Toolset) Call(ctx context.Context, c ToolCall) (Result[any], error) {
	name, args, lines, err := surface.Call(t.policy.Profile, c.Name, c.Args)
	if err != nil {
		return Result[any]{}, &ArgsError{Tool: name, Err: err}
	}
	e, ok := lookup(name)
	if !ok {
		return Result[any]{}, fmt.Errorf("no tool is named %q", c.Name)
	}
	cl, err := registry.Decode(e.Tool, args)
	if err != nil {
		return Result[any]{}, &ArgsError{Tool: e.Name, Err: err}
	}
	ctx = context.WithValue(ctx, callExtrasKey{}, callExtras{progress: c.Progress, lines: lines, asker: c.Asker, input: c.Input})
	if c.URLAsker != nil {
		ctx = shell.WithAsker(ctx, c.URLAsker)
	}
	h, ok := e.run[cl.Method]
	if !ok {
		return Result[any]{}, fmt.Errorf("%s: no method %s", e.Name, cl.Method)
	}
	return h.call(t, ctx, cl.In)
}

// callExtras are what a call by name brings beside its arguments: the
// progress callback of the caller, the per-stream line limits a peer's
// parameters set, and who asks the person about a command the rules hold. They ride in the call's context to the method that
// uses them (bash's Run), so that Call names no tool.
type callExtras struct {
	progress func(bytes, lines int64)
	lines    surface.Lines
	asker    asker
	input    *os.File
}

type callExtrasKey struct{}

// extrasOf returns the extras of the call ctx belongs to.
func extrasOf(ctx context.Context) callExtras {
	x, _ := ctx.Value(callExtrasKey{}).(callExtras)
	return x
}

// A handler runs one method of a tool: it takes a pointer to the method's
// input and returns the result with its details as an any.
type handler struct {
	input, details fields.Type
	// name is the Toolset method's ("History"), "" for a function that
	// is none.
	name string
	call func(t *Toolset, ctx context.Context, in any) (Result[any], error)
}

// handle makes the handler of a Toolset method.
func handle[In, D any](method func(*Toolset, context.Context, In) (Result[D], error)) handler {
	return handler{
		input:   fields.TypeFor[In](),
		details: fields.TypeFor[D](),
		name:    methodName(method),
		call: func(t *Toolset, ctx context.Context, in any) (Result[any], error) {
			r, err := method(t, ctx, *in.(*In))
			return anyResult(r), err
		},
	}
}

// methodName is the name of fn when it is a method of *Toolset ("Bash"
// for (*Toolset).Bash), so that the docs name the methods a tool's
// table entry binds rather than names written beside it.
func methodName(fn any) string {
	full := fields.FuncName(fn)
	_, name, ok := strings.Cut(full, ".(*Toolset).")
	if !ok || strings.ContainsAny(name, ".-") {
		return ""
	}
	return name
}

// handlers are a tool's methods, by the parameter that selects them.
type handlers map[registry.Method]handler

// An entry of the table is a tool, declared once: its name, description
// and parameters, and the methods that run it.
type entry struct {
	registry.Tool
	run handlers
}

// declaration is e's tool with the Go inputs and details of its methods,
// as the registry gives it to the packages that describe the tools.
func (e entry) declaration() registry.Tool {
	t := e.Tool
	t.Inputs = make(map[registry.Method]fields.Type, len(e.run))
	t.MethodNames = make(map[registry.Method]string, len(e.run))
	for m, h := range e.run {
		t.Inputs[m] = h.input
		t.MethodNames[m] = h.name
	}
	t.Details = e.run[registry.Run].details
	t.Params = registry.Params(fields.TypeFor[Policy](), t.Inputs, paramConsts)
	return t
}

func lookup(name string) (entry, bool) {
	for _, e := range table {
		if e.Name == name {
			return e, true
		}
	}
	return entry{}, false
}

func init() {
	decls := make([]registry.Tool, len(table))
	for i := range table {
		table[i].Tool = table[i].declaration()
		decls[i] = table[i].Tool
	}
	registry.Register(decls)
}
