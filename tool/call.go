package tool

import (
	"context"
	"os"
)

// CallInfo is what a call brings beside its input: the caller's hooks for
// this one call. A tool's input holds only what the model sends; the
// session's hooks are the toolset's options; these ride in the call's
// context (WithCallInfo), as the go-sdk keeps a CallToolRequest apart
// from a tool's In and mvdan.cc/sh passes a HandlerCtx. Only bash uses
// them today: a tool that has no use for one ignores it.
type CallInfo struct {
	// Progress, when set, receives the bytes and lines seen so far, both
	// streams together, about once a second while the call waits for its
	// command.
	Progress func(bytes, lines int64)
	// Asker, when set, asks the person about a command a rule holds for
	// approval, in place of the toolset's (an MCP server asks the client
	// of the call).
	Asker func(ctx context.Context, command, cwd string, parts []RulePart) (answer string, err error)
	// URLAsker, for a command that meets a secret prompt, shows the
	// person the address of the page where they answer it, with a
	// message, and reports whether they agreed to open it (MCP's
	// URL-mode elicitation); the call then waits, within its timeout, for
	// their answer, and the result leads with "[the password prompt was
	// answered on the page]" or "[cancelled on the page]". Without one
	// the result tells the model "[waiting for a secret: ask the person
	// to run spillway console]": the address is never the model's.
	URLAsker URLAsker
	// Stdin, when set, is the command's standard input instead of
	// /dev/null, for a command run without stdin or tty (the CLI passes
	// its own when it is not a terminal). The caller keeps it open until
	// the call returns, and closes it.
	Stdin *os.File
}

type callInfoKey struct{}

// WithCallInfo returns ctx carrying c: the tool calls made with it use
// c's hooks.
func WithCallInfo(ctx context.Context, c CallInfo) context.Context {
	return context.WithValue(ctx, callInfoKey{}, c)
}

// CallInfoFrom returns the CallInfo ctx carries; the zero one when none.
func CallInfoFrom(ctx context.Context) CallInfo {
	c, _ := ctx.Value(callInfoKey{}).(CallInfo)
	return c
}
