package spillway

import (
	"math"

	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/term"
)

// The tools table: every tool, in the order they are listed (MCP's
// tools/list, the CLI's help, docs/tools.md). Each tool is one Go input
// and one handler, as the go-sdk's mcp.AddTool[In, Out] has it, declared
// once in its own file (bashEntry in bash.go, readEntry in read.go, …):
// the entry gives its name, title, description, its CLI command's words
// for a person (and, where its input chooses between things to do,
// Notes for docs/tools.md), and run:
// handle((*Toolset).Method), whose input type's json fields are its
// parameters and whose details type's fields its details. The tags of
// an input's fields say each parameter's doc, bounds, default (a value or
// a config key) and CLI spelling, in the vocabulary internal/fields
// lists; a details
// field's doc tag its doc. Toolset.Call decodes a call's arguments into
// the input and calls the handler; every handler first runs check(name,
// &in), the one check of its input for Go, MCP and CLI callers alike:
// the tags' bounds, then the input's own Validate method, if it has one,
// for what relates two parameters (BashInput.Validate in tool/bash.go).
// What a call brings beside its input is its context's CallInfo, never
// a field of the input.
//
// To add a parameter to a tool: add a field to its input (BashInput in
// tool/bash.go, ReadInput in tool/read.go, …) with its json name
// (snake_case; the CLI flag is the same in kebab case), its doc tag, and
// bounds and default tags where it has them; bash's also goes
// in BashInput.given, the list a job call's check reads. Then use it,
// and run `go test . -run TestToolsDoc -update` and `go test
// ./e2e/golden -update` to regenerate docs/tools.md and the golden
// schemas.
//
// To add a tool: a file of its own (edit.go) with its input and details
// (in the tool package when an engine takes them too, aliased here), its
// Toolset method — func (t *Toolset) Edit(ctx, in EditInput)
// (Result[EditDetails], error), starting with check("edit", &in) and
// ending with t.finish for the text — and its entry, entry{Tool:
// registry.Tool{Name, Title, Describe: describe(describeEdit), CLI: the
// command's words for a person}, run:
// handle((*Toolset).Edit)}; a Validate() error method on the input for
// any rule between its parameters; then list the entry in the table
// below, its row in the README, and regenerate docs/tools.md as above.

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
	editEntry,
	writeEntry,
	applyPatchEntry,
	historyEntry,
}
