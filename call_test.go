package spillway_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// Call checks the arguments against the table and maps bash's one object
// onto Bash, CheckJob and KillJob.
func TestCallArguments(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	ctx := context.Background()
	for _, tc := range []struct {
		tool, args string
		err        string // "" for none
	}{
		{"bash", `{"command":"true","timeout":5000,"env":{"A":"1"},"full_output":true}`, ""},
		{"bash", ``, "give exactly one of command (to run), check_pid or kill_pid"},
		{"bash", `null`, "give exactly one of command"},
		{"bash", `{"command":""}`, "give exactly one of command"},
		{"bash", `{"command":"ls","bogus":1}`, `unknown parameter "bogus"; the parameters are: command, args, session, timeout`},
		{"bash", `{"command":"true","timeout":"5000"}`, `parameter "timeout": want an integer, got "5000"`},
		{"bash", `{"command":"true","timeout":1.5}`, `parameter "timeout": want an integer, got 1.5`},
		{"bash", `{"command":"true","max_lines":0}`, `parameter "max_lines": want at least 1, got 0`},
		{"bash", `{"command":"true","run_in_background":"yes"}`, `parameter "run_in_background": want true or false`},
		{"bash", `{"command":"true","env":{"A":1}}`, `parameter "env": "A": want a string value`},
		{"bash", `{"command":"true","env":[1]}`, `parameter "env": want an object`},
		{"bash", `{"command":"true","args":"x"}`, `parameter "args": want a list of strings`},
		{"bash", `[1]`, `arguments must be a JSON object`},
		{"bash", `{"command":"true","check_pid":5}`, "give exactly one of command"},
		{"bash", `{"check_pid":5,"kill_pid":5}`, "give exactly one of command"},
		{"bash", `{"kill_pid":5,"timeout":1000}`, "kill_pid takes no other parameter (got timeout)"},
		{"bash", `{"kill_pid":5,"cwd":"x","full_output":true}`, "kill_pid takes no other parameter (got cwd, full_output)"},
		{"bash", `{"check_pid":1,"session":"a"}`, "check_pid takes only timeout, screen (got session)"},
		{"bash", `{"check_pid":0}`, `parameter "check_pid": want at least 1, got 0`},
		{"read", `{}`, `parameter "path" is required`},
		{"read", `{"path":null}`, `parameter "path" is required`},
		{"read", `{"path":"a","offset":-3}`, `parameter "offset": want at least 1, got -3`},
		{"grep", `{"pattern":"x","output_mode":"lines"}`, `parameter "output_mode": want one of content, files_with_matches, count, got "lines"`},
		{"grep", `{"pattern":"x","context":101}`, `parameter "context": want at most 100, got 101`},
		{"grep", `{"pattern":"x","context":0}`, ""},
		{"find", `{"pattern":"*","type":"link"}`, `parameter "type": want one of any, file, dir`},
		{"ls", `{"limit":1}`, ""},
		{"history", `{}`, ""},
		{"history", `{"status":"ok","limit":2}`, ""},
		{"history", `{"id":3,"status":"ok"}`, "id takes only stream, strategy, max_lines, max_bytes, max_tokens, offset, pattern (got status)"},
		{"history", `{"pattern":"x"}`, "pattern go with id"},
		{"history", `{"status":"done"}`, `parameter "status": want one of ok, failed, running`},
	} {
		_, err := ts.Call(ctx, spillway.ToolCall{Name: tc.tool, Args: json.RawMessage(tc.args)})
		var ae *spillway.ArgsError
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s %s: %v", tc.tool, tc.args, err)
		case tc.err != "" && (!errors.As(err, &ae) || !strings.Contains(err.Error(), tc.err) || !strings.HasPrefix(err.Error(), tc.tool+": ")):
			t.Errorf("%s %s: error %v, want an ArgsError with %q", tc.tool, tc.args, err, tc.err)
		}
	}
	if _, err := ts.Call(ctx, spillway.ToolCall{Name: "edit"}); err == nil {
		t.Error("a tool that does not exist was called")
	}
}

// The job parameters reach CheckJob and KillJob; milliseconds become a
// Duration, held to the ceiling.
func TestCallMapsTheBashUnion(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	ctx := context.Background()
	res, err := ts.Call(ctx, spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command":"echo a; sleep 30","timeout":300}`)})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Details.(spillway.BashDetails)
	if !d.TimedOut || !strings.Contains(res.Text, "after the 300ms timeout") {
		t.Fatalf("timeout 300 ms: %q", res.Text)
	}
	pid, _ := json.Marshal(d.PID)
	if res, err = ts.Call(ctx, spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"check_pid":` + string(pid) + `}`)}); err != nil || !res.Details.(spillway.BashDetails).Running {
		t.Fatalf("check_pid: %v %q", err, res.Text)
	}
	if res, err = ts.Call(ctx, spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"kill_pid":` + string(pid) + `}`)}); err != nil || res.Details.(spillway.BashDetails).Running {
		t.Fatalf("kill_pid: %v %q", err, res.Text)
	}
	// A timeout of 2^40 ms is held to the ceiling instead of overflowing.
	res, err = ts.Call(ctx, spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command":"true","timeout":1099511627776}`)})
	if err != nil || res.IsError {
		t.Fatalf("huge timeout: %v %q", err, res.Text)
	}
}

// A Go caller's input gets the one check an MCP call's arguments get,
// before anything runs: the bounds of its fields' tags (a ceiling holds
// a value to it), a required parameter, the values a string takes, and
// the input's own Validate; the error is an *ArgsError naming the tool.
func TestGoCallersGetTheOneCheck(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"read without a path", func() error { _, err := ts.Read(ctx, spillway.ReadInput{}); return err }, `read: parameter "path" is required`},
		{"read offset", func() error { _, err := ts.Read(ctx, spillway.ReadInput{Path: "x", Offset: -1}); return err }, `read: parameter "offset": want at least 1, got -1`},
		{"read limit", func() error { _, err := ts.Read(ctx, spillway.ReadInput{Path: "x", Limit: -5}); return err }, `read: parameter "limit": want at least 1, got -5`},
		{"read char_offset", func() error {
			_, err := ts.Read(ctx, spillway.ReadInput{Path: "x", CharOffset: -1})
			return err
		}, `read: parameter "char_offset": want at least 0, got -1`},
		{"ls limit", func() error { _, err := ts.Ls(ctx, spillway.LsInput{Limit: -1}); return err }, `ls: parameter "limit": want at least 1, got -1`},
		{"grep without a pattern", func() error { _, err := ts.Grep(ctx, spillway.GrepInput{}); return err }, `grep: parameter "pattern" is required`},
		{"grep mode", func() error {
			_, err := ts.Grep(ctx, spillway.GrepInput{Pattern: "x", OutputMode: "lines"})
			return err
		}, `grep: parameter "output_mode": want one of content, files_with_matches, count, got "lines"`},
		{"grep context", func() error { _, err := ts.Grep(ctx, spillway.GrepInput{Pattern: "x", Context: 101}); return err }, `grep: parameter "context": want at most 100, got 101`},
		{"find type", func() error { _, err := ts.Find(ctx, spillway.FindInput{Pattern: "*", Type: "link"}); return err }, `find: parameter "type": want one of any, file, dir, got "link"`},
		{"bash cols", func() error {
			_, err := ts.Bash(ctx, spillway.BashInput{Command: "true", TTY: true, Cols: 5})
			return err
		}, `bash: parameter "cols": want at least 20, got 5`},
		{"bash cols without tty", func() error { _, err := ts.Bash(ctx, spillway.BashInput{Command: "true", Cols: 80}); return err }, "bash: cols and rows are the size of a terminal"},
		{"check_pid wait", func() error {
			_, err := ts.CheckJob(ctx, spillway.CheckJobInput{PID: 1, Timeout: -time.Second})
			return err
		}, `bash: parameter "timeout": want at least 1, got -1000`},
		{"check_pid screen", func() error {
			_, err := ts.CheckJob(ctx, spillway.CheckJobInput{PID: 1, Screen: "all"})
			return err
		}, `bash: parameter "screen": want one of changes, full, got "all"`},
		{"check_pid with a command's parameter", func() error {
			_, err := ts.Bash(ctx, spillway.BashInput{CheckPID: 1, Cwd: "/"})
			return err
		}, "bash: check_pid takes only timeout, screen (got cwd)"},
		{"write_stdin rows", func() error {
			_, err := ts.WriteStdin(ctx, spillway.WriteStdinInput{PID: 1, Rows: 500})
			return err
		}, `write_stdin: parameter "rows": want at most 200, got 500`},
		{"history stream", func() error { _, err := ts.History(ctx, spillway.HistoryInput{ID: 1, Stream: "both"}); return err }, `history: parameter "stream": want one of stdout, stderr, got "both"`},
		{"history offset and strategy", func() error {
			_, err := ts.History(ctx, spillway.HistoryInput{ID: 1, Offset: 3, Strategy: "tail"})
			return err
		}, "history: give offset (a line range) or strategy, not both"},
		{"history listing with a stream", func() error { _, err := ts.History(ctx, spillway.HistoryInput{Stream: "stdout"}); return err }, "history: stream go with id"},
	} {
		err := tc.call()
		var ae *spillway.ArgsError
		if !errors.As(err, &ae) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an *ArgsError %q", tc.name, err, tc.want)
		}
	}
	// A value past its ceiling is held to it, as a JSON one is.
	r, err := ts.Bash(ctx, spillway.BashInput{Command: "echo hi", MaxLines: 1 << 30})
	if err != nil || !strings.Contains(r.Text, "hi") || r.Details.Stdout.Truncation.Truncated {
		t.Errorf("max_lines past the ceiling: %q, %v", r.Text, err)
	}
}
