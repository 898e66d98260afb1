package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
)

func TestDecodeArgs(t *testing.T) {
	p := policy.Default()
	bash := bashTool(p).InputSchema.(object)
	read := readTool(p).InputSchema.(object)
	grep := grepTool(p).InputSchema.(object)
	for _, tc := range []struct {
		schema object
		args   string
		err    string // "" for none
	}{
		{bash, `{"command":"ls","timeout":5000,"env":{"A":"1"},"full_output":true}`, ""},
		{bash, ``, ""},
		{bash, `null`, ""},
		{bash, `{"command":"ls","bogus":1}`, `unknown parameter "bogus"; the parameters are: command, args, session, timeout`},
		{bash, `{"timeout":"5000"}`, `parameter "timeout": want an integer, got "5000"`},
		{bash, `{"timeout":1.5}`, `parameter "timeout": want an integer, got 1.5`},
		{bash, `{"max_lines":0}`, `parameter "max_lines": want at least 1, got 0`},
		{bash, `{"run_in_background":"yes"}`, `parameter "run_in_background": want true or false`},
		{bash, `{"env":{"A":1}}`, `parameter "env": "A": want a string value`},
		{bash, `{"env":[1]}`, `parameter "env": want an object`},
		{bash, `[1]`, `arguments must be a JSON object`},
		{bash, `{"command":"echo","args":"a b"}`, `parameter "args": want an array`},
		{bash, `{"command":"echo","args":["a",2]}`, `parameter "args": item 1: want a string`},
		{bash, `{"command":"echo","args":["a b","$X"]}`, ""},
		{read, `{}`, `parameter "path" is required`},
		{read, `{"path":null}`, `parameter "path" is required`},
		{read, `{"path":"a","offset":-3}`, `parameter "offset": want at least 1, got -3`},
		{grep, `{"pattern":"x","output_mode":"lines"}`, `parameter "output_mode": want one of content, files_with_matches, count, got "lines"`},
		{grep, `{"pattern":"x","context":0}`, ""},
	} {
		var in map[string]any
		err := decodeArgs(json.RawMessage(tc.args), tc.schema, &in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.args, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.args, err, tc.err)
		}
	}

	var in bashArgs
	if err := decodeArgs(json.RawMessage(`{"command":"ls","timeout":5000,"env":{"A":"1"},"check_pid":0}`), bash, &in); err == nil {
		t.Error("check_pid 0 accepted")
	}
	if err := decodeArgs(json.RawMessage(`{"command":"ls","timeout":5000,"env":{"A":"1"}}`), bash, &in); err != nil ||
		in.Command != "ls" || in.Timeout != 5000 || in.Env["A"] != "1" {
		t.Errorf("decoded %+v, %v", in, err)
	}
}

// The bash tool's one object maps onto Bash, CheckJob and KillJob: it must
// name exactly one thing to do, and a job call takes no command options.
func TestBashArgsCheck(t *testing.T) {
	for _, tc := range []struct {
		args bashArgs
		want string // "" for none
	}{
		{bashArgs{Command: "true"}, ""},
		{bashArgs{CheckPID: 5}, ""},
		{bashArgs{KillPID: 5}, ""},
		{bashArgs{}, "exactly one of command"},
		{bashArgs{Command: "true", CheckPID: 5}, "exactly one of command"},
		{bashArgs{CheckPID: 5, KillPID: 5}, "exactly one of command"},
		{bashArgs{CheckPID: 5, Timeout: 1000}, "check_pid takes no other parameter (got timeout)"},
		{bashArgs{KillPID: 5, Cwd: "x", FullOutput: true}, "kill_pid takes no other parameter (got cwd, full_output)"},
		{bashArgs{CheckPID: 1, Session: "a"}, "check_pid takes no other parameter (got session)"},
	} {
		err := tc.args.check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.args, err, tc.want)
		}
	}
	in := bashArgs{Command: "x", Timeout: 1500}.input()
	if in.Timeout != 1500*time.Millisecond {
		t.Errorf("timeout 1500 ms is %v", in.Timeout)
	}
	if in := (bashArgs{Command: "x", Timeout: 1 << 62}).input(); in.Timeout <= 0 {
		t.Errorf("a huge timeout overflowed: %v", in.Timeout)
	}
}
