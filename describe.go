package spillway

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/output"
)

// The tools' descriptions, written for a model: what each tool does, the
// limits the policy in force puts on it, and how to get at what it cut.

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

// lineCap states a per-line cap, or nothing when there is none.
func lineCap(format string, n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(format, n)
}

func describeBash(p Policy) string {
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
		"pass `tty: true` to run it on a terminal (%d×%d by default, TERM=xterm-256color; stdout and stderr arrive as one stream; "+
		"while a full-screen program such as less, vim or top holds the screen, results show the screen, later ones only its changed rows) or "+
		"`stdin: true` to give it a pipe; when it waits for input the call returns early saying so, and `write_stdin` "+
		"answers it. Prefer non-interactive flags (`-y`, `--batch`, `-b -n 1`) when a program has them.\n\n", p.Shell, shell.TTYCols, shell.TTYRows)
	fmt.Fprintf(&d, "Output: %s to %d lines or %s%s, whichever comes first (%s). "+
		"%s%s Pass `max_lines`/`max_bytes`/`max_tokens` to change the limits for one call, "+
		"or `full_output: true` to get everything inline (up to %s and %s lines a stream) when you really need it.\n\n",
		streams, out.MaxLines, size(out.MaxBytes), tokenCap(" or", out.MaxTokens), strategyText(out), lineCap("Lines over %d chars are shortened. ", out.MaxLineChars),
		spillHowTo, size(streamCeiling), thousands(linesCeiling))
	if p.Bash.Shapes {
		d.WriteString("When the lines cut are mostly log lines of a few shapes (lines that differ only in numbers, ids or spacing), " +
			"the result shows only the lines that tell something: the first and last ones, and between them the failures and the " +
			"rare lines, numbered `N: text` as in the full output, with one line per shape for the rest: its count, its line range and " +
			"the `grep` pattern that lists its lines. Passing `max_lines`, `max_bytes` or `max_tokens` shows the first and last lines instead.\n\n")
	}
	if p.ResultBudget > 0 {
		fmt.Fprintf(&d, "The whole result (both streams, notices and all) fits %d characters: when both streams are long they share that, "+
			"and a stream that needs less leaves the rest to the other (`max_bytes` or `full_output` lift it for one call).\n\n", p.ResultBudget)
	}
	bound := ""
	if p.MaxWait > 0 {
		bound = fmt.Sprintf(", at most %d", p.MaxWait.Milliseconds())
	}
	fmt.Fprintf(&d, "Long-running commands: after `timeout` ms (default %d%s) the command is NOT killed: it moves to the "+
		"background and the result gives its pid and the output so far. Start servers, watchers and anything that "+
		"never ends with `run_in_background: true`, which returns the pid at once. Then:\n"+
		"- `check_pid: PID` returns whether it still runs, its exit code once done, and only the output that is new "+
		"since the last check; with `timeout` (ms) it first waits until there is new output or the command ends, "+
		"so wait with `check_pid` and `timeout` instead of sleeping in a command;\n"+
		"- `kill_pid: PID` stops it (SIGTERM to its process group, SIGKILL after 2 s) and returns its last output.\n"+
		"Give exactly one of `command`, `check_pid`, `kill_pid`. A command that leaves a child running "+
		"(`server &`) returns when the shell exits; the child becomes a background job with a pid you can check or kill.\n\n",
		p.Timeout.Milliseconds(), bound)
	d.WriteString("The text ends with `exit code: N`; a non-zero exit is reported as an error.")
	return d.String()
}

func describeRead(p Policy) string {
	r := p.Read
	return fmt.Sprintf("Read a text file, or an image. Returns at most %d lines or %s%s, whichever comes first, "+
		"starting at line `offset` (1-based, default 1). When more remains, the text ends with "+
		"`[Showing lines S-E of N. Use offset=E+1 to continue]`: call again with that offset to page on. "+
		"`offset` is exact on files of any size, so jump straight to a line that grep or a compiler reported. "+
		"%s"+
		"`line_numbers: true` prefixes `cat -n` style numbers. "+
		"Reads the spill files that other tools' notices name. "+
		"Images (PNG, JPEG, GIF, WebP, up to 5 MB) come back as images. "+
		"A directory is an error: use `ls`. Other binary files are refused: inspect them with `bash` (`xxd FILE | head`, `strings FILE`).",
		r.MaxLines, size(r.MaxBytes), tokenCap(" or", r.MaxTokens), lineCap("Lines over %d chars are cut; the notice gives the `char_offset` that reads on from the cut. ", r.MaxLineChars)+wholeLine(r))
}

// wholeLine says what a page does with a first line over the byte limit,
// when the policy shows none of it.
func wholeLine(r ReadPolicy) string {
	if !r.NoPartialLines {
		return ""
	}
	return fmt.Sprintf("A line over %s is not shown; the notice gives a `bash` command that prints its start. ", size(r.MaxBytes))
}

// tokenCap states a token limit after conj (" or", " and"), "" when there
// is none.
func tokenCap(conj string, maxTokens int) string {
	if maxTokens <= 0 {
		return ""
	}
	return fmt.Sprintf("%s %d tokens (estimated)", conj, maxTokens)
}

func describeGrep(p Policy) string {
	g := p.Grep
	return fmt.Sprintf("Search file contents with a regular expression (RE2 syntax: no backreferences or "+
		"lookaround; `literal: true` searches for a plain string). Searches `path` (a file, or a directory recursively; "+
		"default the working directory), skipping what .gitignore/.ignore exclude, `.git/` and binary files; other hidden "+
		"files are searched. `glob` keeps only matching paths (`*.go`, `src/**/*.ts`).\n\n"+
		"output_mode `content` (default) prints `path:LINE: text`, with `context` lines around each match as "+
		"`path-LINE- text` and groups separated by `--`; `files_with_matches` prints one path per line; `count` prints "+
		"matches per file. At most `limit` matches (default %d) and %s of text%s%s. When the limit is reached the notice says so: raise `limit` or "+
		"narrow the pattern or path. Results are in path order, then line order. No match is not an error.",
		g.Limit, size(g.MaxBytes), tokenCap(" and", g.MaxTokens), lineCap("; lines over %d chars are cut (`read` the file at that line for all of it)", g.MaxLineChars))
}

func describeFind(p Policy) string {
	f := p.Find
	return fmt.Sprintf("Find files and directories by glob (`**` matches any depth). A pattern without `/` "+
		"matches the file name at any depth (`*.go`, `Makefile`); with `/` it matches the path relative to `path` "+
		"(`src/**/*_test.go`). Honours .gitignore/.ignore like grep and skips `.git/`. Results are sorted; directories "+
		"end in `/`. `type` limits the results to files or directories. At most `limit` results (default %d) and %s%s; "+
		"when the limit is reached the notice says so: raise `limit` or narrow the pattern.",
		f.Limit, size(f.MaxBytes), tokenCap(" and", f.MaxTokens))
}

func describeWriteStdin(Policy) string {
	return fmt.Sprintf("Send input to a background command started by `bash` with `tty: true` (a terminal) or "+
		"`stdin: true` (a pipe) — answer a prompt, drive a REPL — then return its new output, as `check_pid` does, "+
		"once it waits for input again, ends, its screen has been still for 100 ms, or `timeout` ms pass (default %d).\n\n"+
		"`input` is sent as typed (`\"yes\\n\"`: a newline is Enter). `keys` are named keys sent after it, in order: %s. "+
		"On a terminal Ctrl-C interrupts the program and Ctrl-D ends its input; on a pipe Ctrl-C sends SIGINT and Ctrl-D closes the pipe. "+
		"`close_stdin: true` ends the input after the rest (a pipe is closed so that `cat` or `sort` can finish; a terminal gets Ctrl-D). "+
		"With neither input nor keys it only waits for new output. A terminal echoes what you type, so the output shows your input too. "+
		"A full-screen program (less, vim, top, htop, fzf) shows its screen: `[screen COLS×ROWS, cursor at row R col C]`, then the rows; "+
		"a later look shows only the rows that changed, numbered, unless `screen: \"full\"`. `cols` and `rows` resize the terminal. "+
		"A command that waits for a secret (a password prompt: sudo, ssh, getpass) is answered by the person on spillway's page, never by you: "+
		"the result says so; `input` to it is refused unless `allow_model_secret: true` (only for a test secret you were given).",
		shell.DefaultWriteWait.Milliseconds(), strings.Join(shell.KeyNames(), ", "))
}

func describeJobs(Policy) string {
	return "List this session's background commands (those bash ran with `run_in_background`, moved to the " +
		"background after `timeout`, that wait for input, or whose children outlived them), oldest first: pid, state " +
		"(`running`, `waiting for input`, `waiting for secret`, which the person answers on spillway's page, `exited` with its exit code), run time, input (`tty`, `stdin`), command, and " +
		"for each stream its lines, size and the file that holds it whole. Use the pid with `check_pid`, `write_stdin` or `kill_pid`."
}

func describeHistory(p Policy) string {
	out := p.Bash.Stdout
	return "Every bash call of this session is recorded with its full output (the spill files, and small outputs kept whole). " +
		"Without `id`: list the calls, oldest first, with their exit codes, sizes and spill files, and the named bash sessions " +
		"(filter with `session`, `status` ok/failed/running, `limit` for the newest N). " +
		"With `id` (the `history_id` of a bash result): show that call's output again WITHOUT running it, with other limits: " +
		"`strategy` head, tail or head_tail, `max_lines`/`max_bytes`, `offset` for the lines from that one on, or `pattern` " +
		"(RE2) for the matching lines with their numbers; `stream` stdout or stderr for one of them. " +
		fmt.Sprintf("Defaults are bash's: %d lines, %s per stream. ", out.MaxLines, size(out.MaxBytes)) +
		fmt.Sprintf("The oldest calls are forgotten first; their spill files go once no result has named them for %s. ", p.Spill.KeepNamed) +
		"Output past the spill file's cap was not saved, except its end."
}

func describeLs(p Policy) string {
	return fmt.Sprintf("List one directory (default: the working directory). Names are sorted "+
		"case-insensitively, hidden files included; directories end in `/`, symlinks in `@`. At most `limit` "+
		"entries (default %d)%s; the notice says when more exist. For a recursive listing use `find`.", p.Ls.Limit, tokenCap(" and", p.Ls.MaxTokens))
}

// thousands writes n with commas between its thousands (100,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
