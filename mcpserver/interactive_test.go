package mcpserver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A session as a model drives it over MCP: a REPL on a terminal returns
// early because it waits for input, write_stdin answers it, jobs lists
// it; bad keys and parameters are clear errors.
func TestInteractiveSession(t *testing.T) {
	t.Parallel()
	forEachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := tr.connect(t, nil)
		r := call(t, cs, "bash", map[string]any{"command": "python3 -q", "tty": true, "timeout": 30000})
		d := details(t, r)
		pid := d["pid"]
		if r.IsError || d["waiting_for_input"] != true || !strings.Contains(text(r), fmt.Sprintf("write_stdin pid=%v", pid)) {
			t.Fatalf("bash: %v %q", d, text(r))
		}
		// The state is sampled from the kernel at each look: poll it, within
		// a generous bound, rather than trust one sample under load.
		want := fmt.Sprintf("pid %v waiting for input", pid)
		var jobs *mcp.CallToolResult
		waitFor(t, "the jobs listing to show the REPL waiting", func() bool {
			jobs = call(t, cs, "jobs", nil)
			return !jobs.IsError && strings.Contains(text(jobs), want)
		})
		if !strings.Contains(text(jobs), "[tty]") {
			t.Errorf("jobs: %q", text(jobs))
		}
		r = call(t, cs, "write_stdin", map[string]any{"pid": pid, "input": "6*7\n"})
		if r.IsError || !strings.Contains(text(r), "\n42\n") || details(t, r)["waiting_for_input"] != true {
			t.Errorf("write_stdin 6*7: %q", text(r))
		}
		r = call(t, cs, "write_stdin", map[string]any{"pid": pid, "keys": []string{"Ctrl-D"}})
		if r.IsError || details(t, r)["running"] != false || !strings.Contains(text(r), "exit code: 0") {
			t.Errorf("write_stdin Ctrl-D: %q", text(r))
		}
		r = call(t, cs, "write_stdin", map[string]any{"pid": pid, "keys": []string{"Hyper-X"}})
		if !r.IsError || !strings.Contains(text(r), "unknown key") {
			t.Errorf("unknown key: %q", text(r))
		}
		r = call(t, cs, "write_stdin", map[string]any{"pid": pid, "keys": "Enter"})
		if !r.IsError || !strings.Contains(text(r), "keys") {
			t.Errorf("keys not a list: %q", text(r))
		}
		r = call(t, cs, "bash", map[string]any{"check_pid": pid, "tty": true})
		if !r.IsError || !strings.Contains(text(r), "check_pid takes only timeout (got tty)") {
			t.Errorf("check_pid with tty: %q", text(r))
		}
	})
}
