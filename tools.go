package spillway

import (
	"math"

	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/term"
)

// The tools table: every tool, in the order they are listed (MCP's
// tools/list, the CLI's help, docs/tools.md). Each tool is declared once,
// in its own file (bashEntry in bash.go, readEntry in read.go, …): its
// name, description and the Toolset methods that run it, and, as the tags
// of the fields of those methods' Go inputs, its parameters (their doc,
// bounds, default, config key, CLI spelling; internal/registry.Params
// lists the tags), as the tags of its details' fields their docs.
// Toolset.Call dispatches through the table, and it is registered with
// internal/registry, from which the tool definitions (the schema package:
// MCP, Anthropic, OpenAI), the CLI commands and flags (cmd/spillway), the
// checks of a call's arguments, and docs/tools.md are made.
//
// To add a parameter to a tool: add a field to the Go input of the method
// it applies to (BashInput, CheckJobInput, ReadInput, …), with its json
// name (snake_case; the CLI flag is the same in kebab case) and its doc
// tag, and bounds, default or config key tags where it has them; then
// implement it, and run `go test . -run TestToolsDoc -update` to
// regenerate docs/tools.md.
//
// To add a tool: a file of its own with its input and details, its method
// on Toolset (returning Result[D]) and its entry naming that method in
// run; then list the entry in the table below and regenerate docs/tools.md
// as above.

// describe is a tool's description under a Policy, as the registry,
// which cannot name Policy, calls it.
func describe(f func(Policy) string) func(any) string {
	return func(p any) string { return f(p.(Policy)) }
}

// paramConsts name the constants that parameters' bounds and defaults
// are, in their tags (ceiling:"lines"), so that a tag and the engine
// that holds a value to it cannot disagree.
var paramConsts = map[string]int64{
	"lines":         linesCeiling,
	"stream":        streamCeiling,
	"int32":         math.MaxInt32, // a timeout in ms that fits a time.Duration
	"min_cols":      term.MinCols,
	"max_cols":      term.MaxCols,
	"min_rows":      term.MinRows,
	"max_rows":      term.MaxRows,
	"tty_cols":      shell.TTYCols,
	"tty_rows":      shell.TTYRows,
	"check_wait_ms": shell.MaxCheckWait.Milliseconds(),
	"write_wait_ms": shell.DefaultWriteWait.Milliseconds(),
	"max_context":   search.MaxContext,
}

var table = []entry{
	bashEntry,
	writeStdinEntry,
	jobsEntry,
	readEntry,
	grepEntry,
	findEntry,
	lsEntry,
	historyEntry,
}
