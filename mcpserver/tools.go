package mcpserver

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
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

// toolOrder is the order in which tools are listed.
var toolOrder = []string{"bash", "write_stdin", "jobs", "read", "grep", "find", "ls", "history"}

// An adapter binds one tool to the library: its definition for a policy,
// the schema of its details, and how to add its handler to a server.
type adapter struct {
	name   string
	define func(policy.Policy) Tool
	// add registers the tool's handler on s.
	add func(s *toolServer, t Tool)
}

// toolAdapter binds a tool to call: its definition is tool's, with the
// output schema of D, the details call returns.
func toolAdapter[In, D any](name string, tool func(policy.Policy) Tool, call callFunc[In, D]) adapter {
	return adapter{
		name: name,
		define: func(p policy.Policy) Tool {
			t := tool(p)
			t.OutputSchema = outputSchema(reflect.TypeFor[D](), detailDescriptions)
			return t
		},
		add: func(s *toolServer, t Tool) { addTool(s, t, call) },
	}
}

// adapters holds the tools compiled in; each adapter file registers its own
// in an init function.
var adapters []adapter

func register(a adapter) {
	adapters = append(adapters, a)
	slices.SortFunc(adapters, func(a, b adapter) int {
		return slices.Index(toolOrder, a.name) - slices.Index(toolOrder, b.name)
	})
}

// Tools returns the tool definitions for policy p, in the order bash, read,
// grep, find, ls. The descriptions state the limits p applies.
func Tools(p policy.Policy) []Tool {
	p = p.WithinBudget() // the limits the toolsets apply
	tools := make([]Tool, 0, len(adapters))
	for _, a := range adapters {
		tools = append(tools, a.define(p))
	}
	return tools
}

// size formats a byte limit the way the notices do (50.0KB).
func size(n int) string { return output.FormatSize(int64(n)) }

// spillHowTo is the advice shared by every description: where cut output
// goes and how to get at it.
const spillHowTo = "When output is cut, a bracketed notice says so and names a file that holds all of it: " +
	"page through that file with `read` (offset/limit), search it with `grep`, or process it with `bash` " +
	"(`grep -n error FILE`, `tail -n 50 FILE`) instead of running the command again."

func strategyText(l output.Limits) string {
	switch l.Strategy {
	case output.Head:
		return "the first lines are kept"
	case output.Tail:
		return "the last lines are kept"
	default:
		return fmt.Sprintf("the first %d%% and the last %d%% are kept with a marker line between them",
			int(l.HeadShare*100+0.5), 100-int(l.HeadShare*100+0.5))
	}
}

func bashTool(p policy.Policy) Tool {
	out := p.Bash.Stdout
	streams := "stdout and stderr are shown apart, each cut"
	if p.Bash.MergeStreams {
		streams = "stdout and stderr are merged in order of arrival and cut"
	}
	var d strings.Builder
	fmt.Fprintf(&d, "Run a shell command (`%s -c COMMAND`) in a fresh process: nothing carries over between calls, "+
		"so use `cwd` and `env` (or `cd DIR && ...`) instead of relying on earlier calls, or name a `session`: the calls "+
		"of one session keep the working directory and the exported variables that the previous one left (a `cd` or "+
		"`export` holds for the next call). stdin is /dev/null; "+
		"colours, pagers and interactive prompts are off. For a program that needs input (a prompt, a REPL, `npm init`), "+
		"pass `tty: true` to run it on a terminal (%d×%d, TERM=dumb; stdout and stderr arrive as one stream) or "+
		"`stdin: true` to give it a pipe; when it waits for input the call returns early saying so, and `write_stdin` "+
		"answers it. Prefer non-interactive flags (`-y`, `--batch`, `-b -n 1`) when a program has them.\n\n", shellName(p), spillway.TTYCols, spillway.TTYRows)
	fmt.Fprintf(&d, "Output: %s to %d lines or %s, whichever comes first (%s). "+
		"%s%s Pass `max_lines`/`max_bytes` to change the limits for one call, "+
		"or `full_output: true` to get everything inline (up to %s a stream) when you really need it.\n\n",
		streams, out.MaxLines, size(out.MaxBytes), strategyText(out), lineCap("Lines over %d chars are shortened. ", out.MaxLineChars),
		spillHowTo, size(policy.StreamCeiling))
	if p.ResultBudget > 0 {
		fmt.Fprintf(&d, "The whole result (both streams, notices and all) fits %d characters: when both streams are long they share that, "+
			"and a stream that needs less leaves the rest to the other (`max_bytes` or `full_output` lift it for one call).\n\n", p.ResultBudget)
	}
	fmt.Fprintf(&d, "Long-running commands: after `timeout` ms (default %d) the command is NOT killed: it moves to the "+
		"background and the result gives its pid and the output so far. Start servers, watchers and anything that "+
		"never ends with `run_in_background: true`, which returns the pid at once. Then:\n"+
		"- `check_pid: PID` returns whether it still runs, its exit code once done, and only the output that is new "+
		"since the last check (poll it instead of sleeping in a command);\n"+
		"- `kill_pid: PID` stops it (SIGTERM to its process group, SIGKILL after 2 s) and returns its last output.\n"+
		"Give exactly one of `command`, `check_pid`, `kill_pid`. A command that leaves a child running "+
		"(`server &`) returns when the shell exits; the child becomes a background job with a pid you can check or kill.\n\n",
		timeoutMS(p))
	d.WriteString("The text ends with `exit code: N`; a non-zero exit is reported as an error.")
	return Tool{
		Name:        "bash",
		Title:       "Run a shell command",
		Description: d.String(),
		InputSchema: object{Closed: true, Props: []property{
			{"command", str("The command, run with `bash -c`; with `args`, the program to run. Omit it when you give check_pid or kill_pid.")},
			{"args", map[string]any{"type": "array", "items": map[string]any{"type": "string"},
				"description": "Run `command` as a program with these arguments, without a shell: spaces, quotes and `$` reach it as they are."}},
			{"session", str("Name of a session (letters, digits, `.`, `_`, `-`): its working directory and exported variables carry over from call to call. Made on first use.")},
			{"timeout", integer(fmt.Sprintf("Milliseconds to wait before the command moves to the background (it keeps running; default %d).", timeoutMS(p)), 1)},
			{"run_in_background", boolean("Start the command and return its pid at once, for servers, watchers and other commands that do not end.")},
			{"cwd", str("Working directory of the command (default: the session's).")},
			{"env", map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"},
				"description": "Extra environment variables, e.g. {\"CI\": \"1\"}."}},
			{"max_lines", integer(fmt.Sprintf("Most lines shown per stream for this call (default %d).", out.MaxLines), 1)},
			{"max_bytes", integer(fmt.Sprintf("Most bytes shown per stream for this call (default %d, at most %d).", out.MaxBytes, policy.StreamCeiling), 1)},
			{"full_output", boolean(fmt.Sprintf("Show each stream whole, up to %s. Prefer reading the spill file a notice names.", size(policy.StreamCeiling)))},
			{"check_pid", integer("Pid of a background command: return its status and the output that is new since the last check.", 1)},
			{"kill_pid", integer("Pid of a background command: stop its process group and return its last output.", 1)},
			{"tty", boolean("Run the command on a terminal, for interactive programs (prompts, REPLs); send input with write_stdin.")},
			{"stdin", boolean("Give the command a pipe as stdin instead of /dev/null; write to it and close it with write_stdin.")},
		}},
	}
}

func readTool(p policy.Policy) Tool {
	r := p.Read
	return Tool{
		Name:  "read",
		Title: "Read a file",
		Description: fmt.Sprintf("Read a text file, or an image. Returns at most %d lines or %s, whichever comes first, "+
			"starting at line `offset` (1-based, default 1). When more remains, the text ends with "+
			"`[Showing lines S-E of N. Use offset=E+1 to continue]`: call again with that offset to page on. "+
			"`offset` is exact on files of any size, so jump straight to a line that grep or a compiler reported. "+
			"%s"+
			"`line_numbers: true` prefixes `cat -n` style numbers. "+
			"Reads the spill files that other tools' notices name. "+
			"Images (PNG, JPEG, GIF, WebP, up to 5 MB) come back as images. "+
			"A directory is an error: use `ls`. Other binary files are refused: inspect them with `bash` (`xxd FILE | head`, `strings FILE`).",
			r.MaxLines, size(r.MaxBytes), lineCap("Lines over %d chars are cut; the notice gives a `bash` command that prints one whole. ", r.MaxLineChars)),
		ReadOnly: true,
		InputSchema: object{Closed: true, Required: []string{"path"}, Props: []property{
			{"path", str("The file to read (absolute, or relative to the session's working directory).")},
			{"offset", integer("First line to show, 1-based (default 1).", 1)},
			{"limit", integer(fmt.Sprintf("Most lines to show (default %d).", r.MaxLines), 1)},
			{"line_numbers", boolean("Prefix each line with its number, `cat -n` style.")},
		}},
	}
}

func grepTool(p policy.Policy) Tool {
	g := p.Grep
	return Tool{
		Name:  "grep",
		Title: "Search file contents",
		Description: fmt.Sprintf("Search file contents with a regular expression (RE2 syntax: no backreferences or "+
			"lookaround; `literal: true` searches for a plain string). Searches `path` (a file, or a directory recursively; "+
			"default the working directory), skipping what .gitignore/.ignore exclude, `.git/` and binary files; other hidden "+
			"files are searched. `glob` keeps only matching paths (`*.go`, `src/**/*.ts`).\n\n"+
			"output_mode `content` (default) prints `path:LINE: text`, with `context` lines around each match as "+
			"`path-LINE- text` and groups separated by `--`; `files_with_matches` prints one path per line; `count` prints "+
			"matches per file. At most `limit` matches (default %d) and %s of text%s. When the limit is reached the notice says so: raise `limit` or "+
			"narrow the pattern or path. Results are in path order, then line order. No match is not an error.",
			g.Limit, size(g.MaxBytes), lineCap("; lines over %d chars are cut (`read` the file at that line for all of it)", g.MaxLineChars)),
		ReadOnly: true,
		InputSchema: object{Closed: true, Required: []string{"pattern"}, Props: []property{
			{"pattern", str("RE2 regular expression, or a plain string with literal: true.")},
			{"path", str("File or directory to search (default: the working directory).")},
			{"glob", str("Only search files whose path matches this glob, e.g. `*.go` or `src/**/*.ts`.")},
			{"ignore_case", boolean("Match without regard to case.")},
			{"literal", boolean("Treat pattern as a plain string, not a regular expression.")},
			{"context", integer("Lines to show before and after each match (content mode).", 0)},
			{"output_mode", enum("`content` (matching lines, default), `files_with_matches` (paths only) or `count` (matches per file).",
				"content", "files_with_matches", "count")},
			{"limit", integer(fmt.Sprintf("Most matches to return (files in files_with_matches mode; default %d).", g.Limit), 1)},
		}},
	}
}

func findTool(p policy.Policy) Tool {
	f := p.Find
	return Tool{
		Name:  "find",
		Title: "Find files by name",
		Description: fmt.Sprintf("Find files and directories by glob (`**` matches any depth). A pattern without `/` "+
			"matches the file name at any depth (`*.go`, `Makefile`); with `/` it matches the path relative to `path` "+
			"(`src/**/*_test.go`). Honours .gitignore/.ignore like grep and skips `.git/`. Results are sorted; directories "+
			"end in `/`. `type` limits the results to files or directories. At most `limit` results (default %d) and %s; "+
			"when the limit is reached the notice says so: raise `limit` or narrow the pattern.",
			f.Limit, size(f.MaxBytes)),
		ReadOnly: true,
		InputSchema: object{Closed: true, Required: []string{"pattern"}, Props: []property{
			{"pattern", str("Glob, e.g. `*.go`, `**/testdata/**` or `cmd/*/main.go`.")},
			{"path", str("Directory to search (default: the working directory).")},
			{"type", enum("`any` (default), `file` or `dir`.", "any", "file", "dir")},
			{"limit", integer(fmt.Sprintf("Most results to return (default %d).", f.Limit), 1)},
		}},
	}
}

func lsTool(p policy.Policy) Tool {
	l := p.Ls
	return Tool{
		Name:  "ls",
		Title: "List a directory",
		Description: fmt.Sprintf("List one directory (default: the working directory). Names are sorted "+
			"case-insensitively, hidden files included; directories end in `/`, symlinks in `@`. At most `limit` "+
			"entries (default %d); the notice says when more exist. For a recursive listing use `find`.", l.Limit),
		ReadOnly: true,
		InputSchema: object{Closed: true, Props: []property{
			{"path", str("Directory to list (default: the working directory).")},
			{"limit", integer(fmt.Sprintf("Most entries to return (default %d).", l.Limit), 1)},
		}},
	}
}

// lineCap states a per-line cap, or nothing when there is none.
func lineCap(format string, n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(format, n)
}

func shellName(p policy.Policy) string {
	if p.Shell == "" {
		return "bash"
	}
	return p.Shell
}

func timeoutMS(p policy.Policy) int {
	if p.TimeoutMS <= 0 {
		return 120_000
	}
	return p.TimeoutMS
}

// detailDescriptions describe the fields of the tools' details, by JSON
// name, for the output schemas.
var detailDescriptions = map[string]string{
	// common
	"truncation":         "What was left out of the text. truncated is true when anything was.",
	"truncated":          "True when anything at all was left out.",
	"truncated_by":       "The limit that cut: lines, bytes, line_chars (only long lines were shortened), or empty.",
	"total_lines":        "Lines in the whole output or file.",
	"total_bytes":        "Bytes in the whole output.",
	"output_lines":       "Lines shown.",
	"output_bytes":       "Bytes shown.",
	"lines_cut":          "Lines shortened because they were too long.",
	"first_line_partial": "Only the beginning of the first line is shown: it is longer than the whole byte budget.",
	"last_line_partial":  "Only the end of the last line is shown: it is longer than the whole byte budget.",
	// bash
	"exit_code":         "Exit code of the command; null while it runs.",
	"signal":            "Signal that killed the command, if any.",
	"timed_out":         "The timeout passed and the command moved to the background.",
	"backgrounded":      "The command runs on as a background job: use check_pid or kill_pid with pid.",
	"running":           "The command (or a child it left) is still running.",
	"pid":               "Process (group) id of the command, for check_pid and kill_pid.",
	"duration_ms":       "Milliseconds the command has run.",
	"history_id":        "Id of the call in the history: the history tool shows its output again with other limits, without running it.",
	"stdout":            "Details of standard output.",
	"stderr":            "Details of standard error.",
	"full_output_path":  "File holding the whole stream, when anything was cut.",
	"spill_capped":      "The spill file reached its size cap; later output was not saved.",
	"binary":            "The stream is binary: the text only says how big it is.",
	"waiting_for_input": "The command seems to wait for input (it is blocked reading its terminal or stdin): answer with write_stdin.",
	// read
	"path":        "The path that was read or searched.",
	"kind":        "text or image.",
	"mime_type":   "Detected MIME type.",
	"offset":      "First line shown, 1-based.",
	"lines_shown": "Lines shown.",
	// grep, find, ls
	"match_count":          "Matching lines found (at most limit).",
	"file_count":           "Files with at least one match.",
	"match_limit_reached":  "The limit stopped the search; more matches may exist.",
	"count":                "Results returned.",
	"result_limit_reached": "The limit stopped the search; more results may exist.",
	"entry_limit_reached":  "The directory has more entries than the limit.",
	"skipped":              "Paths that could not be read (at most five).",
	// history
	"records":  "The recorded bash calls, oldest first.",
	"sessions": "The named bash sessions: cwd and the variables their commands exported.",
	"shown":    "The recorded call shown again, and which lines of each stream were shown.",
}
