package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/term"
)

// The tools table: every tool and every parameter, declared once, with
// the Toolset methods that run it. Toolset.Call dispatches through it, and
// it is registered with internal/registry, from which the tool definitions
// (the schema package: MCP, Anthropic, OpenAI), the CLI commands and
// flags (cmd/spillway), the checks of a call's arguments, and
// docs/tools.md are made; a test fails when any of them drifts from it.
//
// To add a parameter to a tool:
//
//  1. Add a param to the tool's entry below: its name (snake_case; the CLI
//     flag is the same in kebab case), type, doc, default (from the policy
//     when a config key sets it), bounds, and Methods when it belongs to a
//     job call rather than to the command.
//  2. Add a field with the same json tag to the Go input of the method it
//     applies to (BashInput, CheckJobInput, ReadInput, …) and implement it.
//  3. Run `go test . -run TestToolsDoc -update` to regenerate docs/tools.md.
//
// To add a tool: its method on Toolset (input, details, returning
// Result[D]) and an entry here naming it in run; then regenerate
// docs/tools.md as above.

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
	{tool: tool{
		Name:     "bash",
		Title:    "Run a shell command",
		Describe: describeBash,
		Choice:   "give exactly one of command (to run), check_pid or kill_pid (to manage a background command)",
		Params: []param{
			{Name: "command", Type: registry.String, Positional: true,
				Doc: "The command, run with `bash -c`; with `args`, the program to run. Omit it when you give check_pid or kill_pid."},
			{Name: "args", Type: registry.StringList,
				Doc: "Run `command` as a program with these arguments, without a shell: spaces, quotes and `$` reach it as they are."},
			{Name: "session", Type: registry.String,
				Doc: "Name of a session (letters, digits, `.`, `_`, `-`): its working directory and exported variables carry over from call to call. Made on first use."},
			{Name: "timeout", Type: registry.Millis, Min: 1, Ceiling: maxTimeoutMS, Config: "timeout_ms", Methods: registry.Run | registry.CheckJob,
				Default:       func(p Policy) any { return int(p.Timeout.Milliseconds()) },
				PolicyCeiling: func(p Policy) int64 { return p.MaxWait.Milliseconds() },
				Doc: "Milliseconds to wait before the command moves to the background (it keeps running). " +
					"With check_pid: milliseconds to wait for new output or the end before returning (without it, check_pid returns at once)."},
			{Name: "run_in_background", Type: registry.Bool,
				Doc: "Start the command and return its pid at once, for servers, watchers and other commands that do not end."},
			{Name: "cwd", Type: registry.String,
				Doc: "Working directory of the command (default: the session's)."},
			{Name: "env", Type: registry.StringMap,
				Doc: "Extra environment variables, e.g. {\"CI\": \"1\"}."},
			{Name: "max_lines", Type: registry.Int, Min: 1, Ceiling: linesCeiling, Config: "bash.max_lines",
				Default: func(p Policy) any { return p.Bash.Stdout.MaxLines },
				Doc:     "Most lines shown per stream for this call."},
			{Name: "max_bytes", Type: registry.Int, Min: 1, Ceiling: streamCeiling, Config: "bash.max_bytes",
				Default: func(p Policy) any { return p.Bash.Stdout.MaxBytes },
				Doc:     "Most bytes shown per stream for this call."},
			{Name: "max_tokens", Type: registry.Int, Min: 1, Ceiling: streamCeiling, Config: "bash.max_tokens",
				Default: func(p Policy) any { return tokensLimit(p.Bash.Stdout.MaxTokens) },
				Doc:     "Most tokens shown per stream for this call, as spillway estimates them (on the high side: about 1.3 times what OpenAI's tokenizers count for code and logs), beside the line and byte limits."},
			{Name: "full_output", Type: registry.Bool,
				Doc: "Show each stream whole, up to the hard ceiling of 1.0MB a stream. Prefer reading the spill file a notice names."},
			{Name: "check_pid", Type: registry.Int, Min: 1, Methods: registry.CheckJob, Selects: true,
				Doc: "Pid of a background command: return its status and the output that is new since the last check."},
			{Name: "kill_pid", Type: registry.Int, Min: 1, Methods: registry.KillJob, Selects: true,
				Doc: "Pid of a background command: stop its process group and return its last output."},
			{Name: "tty", Type: registry.Bool,
				Doc: "Run the command on a terminal (TERM=xterm-256color), for interactive and full-screen programs (prompts, REPLs, less, vim, top); send input with write_stdin. While a program holds the screen, results show the screen."},
			{Name: "cols", Type: registry.Int, Min: term.MinCols, Max: term.MaxCols,
				Default: func(Policy) any { return shell.TTYCols },
				Doc:     "Columns of the terminal, with tty."},
			{Name: "rows", Type: registry.Int, Min: term.MinRows, Max: term.MaxRows,
				Default: func(Policy) any { return shell.TTYRows },
				Doc:     "Rows of the terminal, with tty."},
			{Name: "screen", Type: registry.String, Enum: []string{shell.ScreenChanges, shell.ScreenFull}, Methods: registry.CheckJob,
				Default: func(Policy) any { return shell.ScreenChanges },
				Doc:     "With check_pid, for a program that holds a terminal's screen: \"changes\" shows the rows changed since the last look, numbered; \"full\" shows every row."},
			{Name: "stdin", Type: registry.Bool,
				Doc: "Give the command a pipe as stdin instead of /dev/null; write to it and close it with write_stdin."},
			{Name: "diff_with", Type: registry.String, OrInt: true,
				Doc: "Run the command, then show what changed since an earlier run instead of its output: a unified diff of each stream (`-` the earlier run, `+` this one) and both exit codes. " +
					"Give the history_id of an earlier call (e.g. \"3\") or \"last\" for the last run of the same command."},
		},
	}, run: handlers{registry.Run: handle((*Toolset).Bash), registry.CheckJob: handle((*Toolset).CheckJob), registry.KillJob: handle((*Toolset).KillJob)}},
	{tool: tool{
		Name:     "write_stdin",
		Title:    "Send input to a running command",
		MCPOnly:  true, // a one-shot command's job ends with it
		Describe: describeWriteStdin,
		Params: []param{
			{Name: "pid", Type: registry.Int, Min: 1, Required: true,
				Doc: "Pid of the background command, as bash returned it."},
			{Name: "input", Type: registry.String,
				Doc: "Text to send as typed; a newline is Enter."},
			{Name: "keys", Type: registry.StringList,
				Doc: "Named keys to send after input, e.g. [\"Enter\"], [\"Ctrl-C\"], [\"Up\", \"Enter\"]."},
			{Name: "close_stdin", Type: registry.Bool,
				Doc: "End the command's input after sending the rest (end of file)."},
			{Name: "allow_model_secret", Type: registry.Bool,
				Doc: "Send input to a command that waits for a secret (a password prompt; its terminal does not echo). Without it such input is refused: the user answers on the page the result names. Only for a test secret you were given."},
			{Name: "timeout", Type: registry.Millis, Min: 1, Ceiling: shell.MaxCheckWait.Milliseconds(),
				Default: func(Policy) any { return int(shell.DefaultWriteWait.Milliseconds()) },
				Doc:     "Most milliseconds to wait for the answer; the call returns as soon as the command waits for input again or ends, or its screen has been still for 100 ms."},
			{Name: "cols", Type: registry.Int, Min: term.MinCols, Max: term.MaxCols,
				Doc: "Resize the command's terminal to this many columns (it gets SIGWINCH and redraws)."},
			{Name: "rows", Type: registry.Int, Min: term.MinRows, Max: term.MaxRows,
				Doc: "Resize the command's terminal to this many rows (it gets SIGWINCH and redraws)."},
			{Name: "screen", Type: registry.String, Enum: []string{shell.ScreenChanges, shell.ScreenFull},
				Default: func(Policy) any { return shell.ScreenChanges },
				Doc:     "For a program that holds a terminal's screen: \"changes\" shows the rows changed since the last look, numbered; \"full\" shows every row."},
		},
	}, run: handlers{registry.Run: handle((*Toolset).WriteStdin)}},
	{tool: tool{
		Name:     "jobs",
		Title:    "List background commands",
		ReadOnly: true,
		MCPOnly:  true, // a one-shot command's jobs end with it
		Describe: describeJobs,
	}, run: handlers{registry.Run: handle(func(t *Toolset, ctx context.Context, _ struct{}) (Result[JobsDetails], error) { return t.Jobs(ctx) })}},
	{tool: tool{
		Name:     "read",
		Title:    "Read a file",
		ReadOnly: true,
		Describe: describeRead,
		Params: []param{
			{Name: "path", Type: registry.String, Required: true, Positional: true,
				Doc: "The file to read (absolute, or relative to the session's working directory)."},
			{Name: "offset", Type: registry.Int, Min: 1, Default: func(Policy) any { return 1 },
				Doc: "First line to show, 1-based."},
			{Name: "limit", Type: registry.Int, Min: 1, Ceiling: linesCeiling, Config: "read.max_lines",
				Default: func(p Policy) any { return p.Read.MaxLines },
				Doc:     "Most lines to show."},
			{Name: "line_numbers", Type: registry.Bool,
				Doc: "Prefix each line with its number, `cat -n` style."},
			{Name: "char_offset", Type: registry.Int, Min: 0,
				Doc: "Page within the line at offset: show it from this character (0-based) on, as much as the byte limit holds. A cut line's notice gives the value to continue from."},
		},
	}, run: handlers{registry.Run: handle((*Toolset).Read)}},
	{tool: tool{
		Name:     "grep",
		Title:    "Search file contents",
		ReadOnly: true,
		Describe: describeGrep,
		Params: []param{
			{Name: "pattern", Type: registry.String, Required: true, Positional: true,
				Doc: "RE2 regular expression, or a plain string with literal: true."},
			{Name: "path", Type: registry.String, Positional: true,
				Doc: "File or directory to search (default: the working directory)."},
			{Name: "glob", Type: registry.String,
				Doc: "Only search files whose path matches this glob, e.g. `*.go` or `src/**/*.ts` (`!glob` excludes)."},
			{Name: "ignore_case", Type: registry.Bool, Short: "i",
				Doc: "Match without regard to case."},
			{Name: "literal", Type: registry.Bool, Short: "F",
				Doc: "Treat pattern as a plain string, not a regular expression."},
			{Name: "context", Type: registry.Int, Min: 0, Max: search.MaxContext, Short: "C", Default: func(Policy) any { return 0 },
				Doc: "Lines to show before and after each match (content mode)."},
			{Name: "output_mode", Type: registry.String, Enum: []string{"content", "files_with_matches", "count"},
				Default: func(Policy) any { return "content" },
				Doc:     "`content` (matching lines), `files_with_matches` (paths only) or `count` (matches per file)."},
			{Name: "limit", Type: registry.Int, Min: 1, Ceiling: linesCeiling, Config: "grep.limit",
				Default: func(p Policy) any { return p.Grep.Limit },
				Doc:     "Most matches to return (files in files_with_matches mode)."},
		},
	}, run: handlers{registry.Run: handle((*Toolset).Grep)}},
	{tool: tool{
		Name:     "find",
		Title:    "Find files by name",
		ReadOnly: true,
		Describe: describeFind,
		Params: []param{
			{Name: "pattern", Type: registry.String, Required: true, Positional: true,
				Doc: "Glob, e.g. `*.go`, `**/testdata/**` or `cmd/*/main.go`."},
			{Name: "path", Type: registry.String, Positional: true,
				Doc: "Directory to search (default: the working directory)."},
			{Name: "type", Type: registry.String, Enum: []string{"any", "file", "dir"},
				Default: func(Policy) any { return "any" },
				Doc:     "`any`, `file` or `dir`."},
			{Name: "limit", Type: registry.Int, Min: 1, Ceiling: linesCeiling, Config: "find.limit",
				Default: func(p Policy) any { return p.Find.Limit },
				Doc:     "Most results to return."},
		},
	}, run: handlers{registry.Run: handle((*Toolset).Find)}},
	{tool: tool{
		Name:     "ls",
		Title:    "List a directory",
		ReadOnly: true,
		Describe: describeLs,
		Params: []param{
			{Name: "path", Type: registry.String, Positional: true,
				Doc: "Directory to list (default: the working directory)."},
			{Name: "limit", Type: registry.Int, Min: 1, Ceiling: linesCeiling, Config: "ls.limit",
				Default: func(p Policy) any { return p.Ls.Limit },
				Doc:     "Most entries to return."},
		},
	}, run: handlers{registry.Run: handle((*Toolset).Ls)}},
	{tool: tool{
		Name:     "history",
		Title:    "Look back at earlier bash calls",
		ReadOnly: true,
		MCPOnly:  true,
		Describe: describeHistory,
		Params: []param{
			{Name: "id", Type: registry.Int, Min: 1, Methods: registry.Rerender, Selects: true,
				Doc: "History id of a call to show again (history_id in a bash result). Leave it out to list the calls."},
			{Name: "session", Type: registry.String,
				Doc: "List only the calls of this bash session."},
			{Name: "status", Type: registry.String, Enum: []string{"ok", "failed", "running"},
				Doc: "List only calls that exited 0 (`ok`), exited otherwise (`failed`), or still run (`running`)."},
			{Name: "limit", Type: registry.Int, Min: 1,
				Doc: "List only the newest N calls."},
			{Name: "stream", Type: registry.String, Enum: []string{"stdout", "stderr"}, Methods: registry.Rerender,
				Doc: "Show only `stdout` or `stderr` (default both)."},
			{Name: "strategy", Type: registry.String, Enum: []string{"head", "tail", "head_tail"}, Methods: registry.Rerender,
				Doc: "Which lines to keep when the output does not fit: `head`, `tail` or `head_tail`."},
			{Name: "max_lines", Type: registry.Int, Min: 1, Methods: registry.Rerender, Config: "bash.max_lines",
				Default: func(p Policy) any { return p.Bash.Stdout.MaxLines },
				Doc:     "Most lines shown per stream."},
			{Name: "max_bytes", Type: registry.Int, Min: 1, Methods: registry.Rerender, Config: "bash.max_bytes",
				Default: func(p Policy) any { return p.Bash.Stdout.MaxBytes },
				Doc:     "Most bytes shown per stream."},
			{Name: "max_tokens", Type: registry.Int, Min: 1, Ceiling: streamCeiling, Methods: registry.Rerender, Config: "bash.max_tokens",
				Default: func(p Policy) any { return tokensLimit(p.Bash.Stdout.MaxTokens) },
				Doc:     "Most tokens shown per stream, as spillway estimates them (on the high side)."},
			{Name: "offset", Type: registry.Int, Min: 1, Methods: registry.Rerender,
				Doc: "Show the lines from this line on (1-based): a line range with max_lines."},
			{Name: "pattern", Type: registry.String, Methods: registry.Rerender,
				Doc: "Show only the lines matching this RE2 regular expression, with their line numbers."},
		},
	}, run: handlers{registry.Run: handle((*Toolset).History), registry.Rerender: handle((*Toolset).History)}},
}
