package spillway

import "github.com/spillway-dev/spillway/internal/registry"

// The tools table: every tool, in the order they are listed (MCP's
// tools/list, the CLI's help, docs/tools.md). Each tool is declared once,
// by an entry that sits beside its Go input in the tool's own file
// (bashEntry in bash.go, readEntry in read.go, …): its name, description,
// parameters, and the Toolset methods that run it. Toolset.Call
// dispatches through the table, and it is registered with
// internal/registry, from which the tool definitions (the schema package:
// MCP, Anthropic, OpenAI), the CLI commands and flags (cmd/spillway), the
// checks of a call's arguments, and docs/tools.md are made; a test fails
// when any of them drifts from it.
//
// To add a parameter to a tool:
//
//  1. Add a param to the tool's entry: its name (snake_case; the CLI flag
//     is the same in kebab case), type, doc, default (from the policy when
//     a config key sets it), bounds, and Methods when it belongs to a job
//     call rather than to the command.
//  2. Beside it, add a field with the same json tag to the Go input of the
//     method it applies to (BashInput, CheckJobInput, ReadInput, …) and
//     implement it. A bash parameter reaches the shell through
//     BashInput.command, which copies it into a field of shell.Command; one
//     that changes how the process is made (its program, arguments,
//     directory or environment) is applied in that Command's plan, in the
//     same file, internal/shell/command.go.
//  3. Run `go test . -run TestToolsDoc -update` to regenerate docs/tools.md.
//
// To add a tool: a file of its own with its input and details, its method
// on Toolset (returning Result[D]) and its entry naming that method in
// run; then list the entry in the table below and regenerate docs/tools.md
// as above.

// tool and param are the registry's, under spillway's policy.
type (
	tool  = registry.Tool[Policy]
	param = registry.Param[Policy]
)

// tokensLimit states a token limit as a default: "none" for 0.
func tokensLimit(n int) any {
	if n <= 0 {
		return "none"
	}
	return n
}

// maxTimeoutMS bounds a timeout in milliseconds (about 24 days), so that
// any value given fits a time.Duration.
const maxTimeoutMS = 1<<31 - 1

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
