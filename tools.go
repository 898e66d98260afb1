package spillway

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/term"
)

// The tools table: every tool and every parameter, declared once. The MCP
// input schemas (mcpserver), the CLI commands and flags (cmd/spillway),
// the checks of a call's arguments (Toolset.Call), the config keys that
// set a default, and docs/tools.md are all made from it, and a test fails
// when any of them drifts from it.
//
// To add a parameter to a tool:
//
//  1. Add a Param to the tool's entry below: its name (snake_case; the CLI
//     flag is the same in kebab case), type, doc, default (from the policy
//     when a config key sets it), bounds, and Methods when it belongs to a
//     job call rather than to the command.
//  2. Add a field with the same json tag to the Go input of the method it
//     applies to (BashInput, CheckJobInput, ReadInput, …) and implement it.
//  3. Run `go test . -run TestToolsDoc -update` to regenerate docs/tools.md.
//
// To add a tool: an entry here, its input, result and method on Toolset,
// and one case in Toolset.Call (call.go).

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
)

// A Method is the Toolset method that a parameter is given to. Most tools
// have one method; bash has three, chosen by which of command, check_pid
// and kill_pid a call gives, and history two (a listing, or one call
// shown again by id).
type Method int

// Methods of the tools.
const (
	Run      Method = 1 << iota // the tool's own method: Bash, Read, Grep, Find, Ls, HistoryText
	CheckJob                    // Toolset.CheckJob (bash check_pid)
	KillJob                     // Toolset.KillJob (bash kill_pid)
	Rerender                    // Toolset.Rerender (history id)
)

// A Param is one parameter of a tool.
type Param struct {
	// Name is the parameter's name in MCP calls and docs (snake_case),
	// its json tag in the Go input, and, in kebab case, its CLI flag.
	Name string
	Type ParamType
	// Doc says what the parameter does, for a model and for a person.
	Doc string
	// Default returns the value used when the parameter is not given,
	// under the policy in force; nil when there is none to state.
	Default func(Policy) any
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
	PolicyCeiling func(Policy) int64
	// Enum lists the values a String parameter may take.
	Enum []string
	// Required parameters must be given.
	Required bool
	// Methods are the methods the parameter is given to (0: Run).
	Methods Method
	// Selects is set on the parameter whose presence chooses its method
	// (check_pid chooses CheckJob).
	Selects bool
	// Positional parameters are CLI arguments rather than flags, in the
	// order of the table; Short is a one-letter CLI flag.
	Positional bool
	Short      string
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
	// Choice, when set, is the error of a call that names none or more
	// than one of the Run method's first parameter and the selecting
	// parameters (bash: command, check_pid, kill_pid).
	Choice string
	// Describe says, for a model, what the tool does and the limits the
	// policy p puts on it.
	Describe func(p Policy) string
	Params   []Param
	// Inputs are the Go inputs of the tool's methods, whose fields' json
	// tags name the parameters.
	Inputs map[Method]reflect.Type
	// Details is the type of the tool's details: their schema is derived
	// from it.
	Details reflect.Type
}

// methods returns the methods p is given to.
func (p Param) methods() Method {
	if p.Methods == 0 {
		return Run
	}
	return p.Methods
}

// AppliesTo reports whether p is a parameter of method m.
func (p Param) AppliesTo(m Method) bool { return p.methods()&m != 0 }

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
func (p Param) CeilingUnder(pol Policy) int64 {
	c := p.Ceiling
	if p.PolicyCeiling != nil {
		if pc := p.PolicyCeiling(pol); pc > 0 && (c == 0 || pc < c) {
			c = pc
		}
	}
	return c
}

// Tools returns the tools, in the order bash, write_stdin, jobs, read,
// grep, find, ls, history.
func Tools() []Tool { return slices.Clone(tools) }

// LookupTool returns the tool named name.
func LookupTool(name string) (Tool, bool) {
	i := slices.IndexFunc(tools, func(t Tool) bool { return t.Name == name })
	if i < 0 {
		return Tool{}, false
	}
	return tools[i], true
}

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

var tools = []Tool{
	{
		Name:     "bash",
		Title:    "Run a shell command",
		Describe: describeBash,
		Choice:   "give exactly one of command (to run), check_pid or kill_pid (to manage a background command)",
		Details:  reflect.TypeFor[BashDetails](),
		Inputs: map[Method]reflect.Type{
			Run:      reflect.TypeFor[BashInput](),
			CheckJob: reflect.TypeFor[CheckJobInput](),
			KillJob:  reflect.TypeFor[KillJobInput](),
		},
		Params: []Param{
			{Name: "command", Type: String, Positional: true,
				Doc: "The command, run with `bash -c`; with `args`, the program to run. Omit it when you give check_pid or kill_pid."},
			{Name: "args", Type: StringList,
				Doc: "Run `command` as a program with these arguments, without a shell: spaces, quotes and `$` reach it as they are."},
			{Name: "session", Type: String,
				Doc: "Name of a session (letters, digits, `.`, `_`, `-`): its working directory and exported variables carry over from call to call. Made on first use."},
			{Name: "timeout", Type: Millis, Min: 1, Ceiling: maxTimeoutMS, Config: "timeout_ms", Methods: Run | CheckJob,
				Default:       func(p Policy) any { return int(p.Timeout.Milliseconds()) },
				PolicyCeiling: func(p Policy) int64 { return p.MaxWait.Milliseconds() },
				Doc: "Milliseconds to wait before the command moves to the background (it keeps running). " +
					"With check_pid: milliseconds to wait for new output or the end before returning (without it, check_pid returns at once)."},
			{Name: "run_in_background", Type: Bool,
				Doc: "Start the command and return its pid at once, for servers, watchers and other commands that do not end."},
			{Name: "cwd", Type: String,
				Doc: "Working directory of the command (default: the session's)."},
			{Name: "env", Type: StringMap,
				Doc: "Extra environment variables, e.g. {\"CI\": \"1\"}."},
			{Name: "max_lines", Type: Int, Min: 1, Ceiling: LinesCeiling, Config: "bash.max_lines",
				Default: func(p Policy) any { return p.Bash.Stdout.MaxLines },
				Doc:     "Most lines shown per stream for this call."},
			{Name: "max_bytes", Type: Int, Min: 1, Ceiling: StreamCeiling, Config: "bash.max_bytes",
				Default: func(p Policy) any { return p.Bash.Stdout.MaxBytes },
				Doc:     "Most bytes shown per stream for this call."},
			{Name: "max_tokens", Type: Int, Min: 1, Ceiling: StreamCeiling, Config: "bash.max_tokens",
				Default: func(p Policy) any { return tokensLimit(p.Bash.Stdout.MaxTokens) },
				Doc:     "Most tokens shown per stream for this call, as spillway estimates them (on the high side: about 1.3 times what OpenAI's tokenizers count for code and logs), beside the line and byte limits."},
			{Name: "full_output", Type: Bool,
				Doc: "Show each stream whole, up to the hard ceiling of 1.0MB a stream. Prefer reading the spill file a notice names."},
			{Name: "check_pid", Type: Int, Min: 1, Methods: CheckJob, Selects: true,
				Doc: "Pid of a background command: return its status and the output that is new since the last check."},
			{Name: "kill_pid", Type: Int, Min: 1, Methods: KillJob, Selects: true,
				Doc: "Pid of a background command: stop its process group and return its last output."},
			{Name: "tty", Type: Bool,
				Doc: "Run the command on a terminal (TERM=xterm-256color), for interactive and full-screen programs (prompts, REPLs, less, vim, top); send input with write_stdin. While a program holds the screen, results show the screen."},
			{Name: "cols", Type: Int, Min: term.MinCols, Max: term.MaxCols,
				Default: func(Policy) any { return TTYCols },
				Doc:     "Columns of the terminal, with tty."},
			{Name: "rows", Type: Int, Min: term.MinRows, Max: term.MaxRows,
				Default: func(Policy) any { return TTYRows },
				Doc:     "Rows of the terminal, with tty."},
			{Name: "screen", Type: String, Enum: []string{shell.ScreenChanges, shell.ScreenFull}, Methods: CheckJob,
				Default: func(Policy) any { return shell.ScreenChanges },
				Doc:     "With check_pid, for a program that holds a terminal's screen: \"changes\" shows the rows changed since the last look, numbered; \"full\" shows every row."},
			{Name: "stdin", Type: Bool,
				Doc: "Give the command a pipe as stdin instead of /dev/null; write to it and close it with write_stdin."},
			{Name: "diff_with", Type: String, OrInt: true,
				Doc: "Run the command, then show what changed since an earlier run instead of its output: a unified diff of each stream (`-` the earlier run, `+` this one) and both exit codes. " +
					"Give the history_id of an earlier call (e.g. \"3\") or \"last\" for the last run of the same command."},
		},
	},
	{
		Name:     "write_stdin",
		Title:    "Send input to a running command",
		MCPOnly:  true, // a one-shot command's job ends with it
		Describe: describeWriteStdin,
		Details:  reflect.TypeFor[BashDetails](),
		Inputs:   map[Method]reflect.Type{Run: reflect.TypeFor[WriteStdinInput]()},
		Params: []Param{
			{Name: "pid", Type: Int, Min: 1, Required: true,
				Doc: "Pid of the background command, as bash returned it."},
			{Name: "input", Type: String,
				Doc: "Text to send as typed; a newline is Enter."},
			{Name: "keys", Type: StringList,
				Doc: "Named keys to send after input, e.g. [\"Enter\"], [\"Ctrl-C\"], [\"Up\", \"Enter\"]."},
			{Name: "close_stdin", Type: Bool,
				Doc: "End the command's input after sending the rest (end of file)."},
			{Name: "allow_model_secret", Type: Bool,
				Doc: "Send input to a command that waits for a secret (a password prompt; its terminal does not echo). Without it such input is refused: the user answers on the page the result names. Only for a test secret you were given."},
			{Name: "timeout", Type: Millis, Min: 1, Ceiling: shell.MaxCheckWait.Milliseconds(),
				Default: func(Policy) any { return int(DefaultWriteStdinWait.Milliseconds()) },
				Doc:     "Most milliseconds to wait for the answer; the call returns as soon as the command waits for input again or ends, or its screen has been still for 100 ms."},
			{Name: "cols", Type: Int, Min: term.MinCols, Max: term.MaxCols,
				Doc: "Resize the command's terminal to this many columns (it gets SIGWINCH and redraws)."},
			{Name: "rows", Type: Int, Min: term.MinRows, Max: term.MaxRows,
				Doc: "Resize the command's terminal to this many rows (it gets SIGWINCH and redraws)."},
			{Name: "screen", Type: String, Enum: []string{shell.ScreenChanges, shell.ScreenFull},
				Default: func(Policy) any { return shell.ScreenChanges },
				Doc:     "For a program that holds a terminal's screen: \"changes\" shows the rows changed since the last look, numbered; \"full\" shows every row."},
		},
	},
	{
		Name:     "jobs",
		Title:    "List background commands",
		ReadOnly: true,
		MCPOnly:  true, // a one-shot command's jobs end with it
		Describe: describeJobs,
		Details:  reflect.TypeFor[JobsDetails](),
		Inputs:   map[Method]reflect.Type{Run: reflect.TypeFor[JobsInput]()},
	},
	{
		Name:     "read",
		Title:    "Read a file",
		ReadOnly: true,
		Describe: describeRead,
		Details:  reflect.TypeFor[ReadDetails](),
		Inputs:   map[Method]reflect.Type{Run: reflect.TypeFor[ReadInput]()},
		Params: []Param{
			{Name: "path", Type: String, Required: true, Positional: true,
				Doc: "The file to read (absolute, or relative to the session's working directory)."},
			{Name: "offset", Type: Int, Min: 1, Default: func(Policy) any { return 1 },
				Doc: "First line to show, 1-based."},
			{Name: "limit", Type: Int, Min: 1, Ceiling: LinesCeiling, Config: "read.max_lines",
				Default: func(p Policy) any { return p.Read.MaxLines },
				Doc:     "Most lines to show."},
			{Name: "line_numbers", Type: Bool,
				Doc: "Prefix each line with its number, `cat -n` style."},
			{Name: "char_offset", Type: Int, Min: 0,
				Doc: "Page within the line at offset: show it from this character (0-based) on, as much as the byte limit holds. A cut line's notice gives the value to continue from."},
		},
	},
	{
		Name:     "grep",
		Title:    "Search file contents",
		ReadOnly: true,
		Describe: describeGrep,
		Details:  reflect.TypeFor[GrepDetails](),
		Inputs:   map[Method]reflect.Type{Run: reflect.TypeFor[GrepInput]()},
		Params: []Param{
			{Name: "pattern", Type: String, Required: true, Positional: true,
				Doc: "RE2 regular expression, or a plain string with literal: true."},
			{Name: "path", Type: String, Positional: true,
				Doc: "File or directory to search (default: the working directory)."},
			{Name: "glob", Type: String,
				Doc: "Only search files whose path matches this glob, e.g. `*.go` or `src/**/*.ts` (`!glob` excludes)."},
			{Name: "ignore_case", Type: Bool, Short: "i",
				Doc: "Match without regard to case."},
			{Name: "literal", Type: Bool, Short: "F",
				Doc: "Treat pattern as a plain string, not a regular expression."},
			{Name: "context", Type: Int, Min: 0, Max: search.MaxContext, Short: "C", Default: func(Policy) any { return 0 },
				Doc: "Lines to show before and after each match (content mode)."},
			{Name: "output_mode", Type: String, Enum: []string{"content", "files_with_matches", "count"},
				Default: func(Policy) any { return "content" },
				Doc:     "`content` (matching lines), `files_with_matches` (paths only) or `count` (matches per file)."},
			{Name: "limit", Type: Int, Min: 1, Ceiling: LinesCeiling, Config: "grep.limit",
				Default: func(p Policy) any { return p.Grep.Limit },
				Doc:     "Most matches to return (files in files_with_matches mode)."},
		},
	},
	{
		Name:     "find",
		Title:    "Find files by name",
		ReadOnly: true,
		Describe: describeFind,
		Details:  reflect.TypeFor[FindDetails](),
		Inputs:   map[Method]reflect.Type{Run: reflect.TypeFor[FindInput]()},
		Params: []Param{
			{Name: "pattern", Type: String, Required: true, Positional: true,
				Doc: "Glob, e.g. `*.go`, `**/testdata/**` or `cmd/*/main.go`."},
			{Name: "path", Type: String, Positional: true,
				Doc: "Directory to search (default: the working directory)."},
			{Name: "type", Type: String, Enum: []string{"any", "file", "dir"},
				Default: func(Policy) any { return "any" },
				Doc:     "`any`, `file` or `dir`."},
			{Name: "limit", Type: Int, Min: 1, Ceiling: LinesCeiling, Config: "find.limit",
				Default: func(p Policy) any { return p.Find.Limit },
				Doc:     "Most results to return."},
		},
	},
	{
		Name:     "ls",
		Title:    "List a directory",
		ReadOnly: true,
		Describe: describeLs,
		Details:  reflect.TypeFor[LsDetails](),
		Inputs:   map[Method]reflect.Type{Run: reflect.TypeFor[LsInput]()},
		Params: []Param{
			{Name: "path", Type: String, Positional: true,
				Doc: "Directory to list (default: the working directory)."},
			{Name: "limit", Type: Int, Min: 1, Ceiling: LinesCeiling, Config: "ls.limit",
				Default: func(p Policy) any { return p.Ls.Limit },
				Doc:     "Most entries to return."},
		},
	},
	{
		Name:     "history",
		Title:    "Look back at earlier bash calls",
		ReadOnly: true,
		MCPOnly:  true,
		Describe: describeHistory,
		Details:  reflect.TypeFor[HistoryDetails](),
		Inputs: map[Method]reflect.Type{
			Run:      reflect.TypeFor[HistoryFilter](),
			Rerender: reflect.TypeFor[RerenderInput](),
		},
		Params: []Param{
			{Name: "id", Type: Int, Min: 1, Methods: Rerender, Selects: true,
				Doc: "History id of a call to show again (history_id in a bash result). Leave it out to list the calls."},
			{Name: "session", Type: String,
				Doc: "List only the calls of this bash session."},
			{Name: "status", Type: String, Enum: []string{"ok", "failed", "running"},
				Doc: "List only calls that exited 0 (`ok`), exited otherwise (`failed`), or still run (`running`)."},
			{Name: "limit", Type: Int, Min: 1,
				Doc: "List only the newest N calls."},
			{Name: "stream", Type: String, Enum: []string{"stdout", "stderr"}, Methods: Rerender,
				Doc: "Show only `stdout` or `stderr` (default both)."},
			{Name: "strategy", Type: String, Enum: []string{"head", "tail", "head_tail"}, Methods: Rerender,
				Doc: "Which lines to keep when the output does not fit: `head`, `tail` or `head_tail`."},
			{Name: "max_lines", Type: Int, Min: 1, Methods: Rerender, Config: "bash.max_lines",
				Default: func(p Policy) any { return p.Bash.Stdout.MaxLines },
				Doc:     "Most lines shown per stream."},
			{Name: "max_bytes", Type: Int, Min: 1, Methods: Rerender, Config: "bash.max_bytes",
				Default: func(p Policy) any { return p.Bash.Stdout.MaxBytes },
				Doc:     "Most bytes shown per stream."},
			{Name: "max_tokens", Type: Int, Min: 1, Ceiling: StreamCeiling, Methods: Rerender, Config: "bash.max_tokens",
				Default: func(p Policy) any { return tokensLimit(p.Bash.Stdout.MaxTokens) },
				Doc:     "Most tokens shown per stream, as spillway estimates them (on the high side)."},
			{Name: "offset", Type: Int, Min: 1, Methods: Rerender,
				Doc: "Show the lines from this line on (1-based): a line range with max_lines."},
			{Name: "pattern", Type: String, Methods: Rerender,
				Doc: "Show only the lines matching this RE2 regular expression, with their line numbers."},
		},
	},
}
