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
		if !r.IsError || !strings.Contains(text(r), "check_pid takes only timeout, screen (got tty)") {
			t.Errorf("check_pid with tty: %q", text(r))
		}
	})
}

// A full-screen program over MCP: the screen of the size asked for, then
// only the rows that changed, every row with screen "full", a resize,
// and the end.
func TestScreenSession(t *testing.T) {
	t.Parallel()
	forEachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := tr.connect(t, nil)
		r := call(t, cs, "bash", map[string]any{"command": "seq 1 1000 | less", "tty": true, "cols": 60, "rows": 10, "timeout": 30000})
		pid := details(t, r)["pid"]
		if r.IsError || !strings.HasPrefix(text(r), "[screen 60×10, cursor at row 10 col ") || !strings.Contains(text(r), "\n1\n2\n3\n") {
			t.Fatalf("bash: %q", text(r))
		}
		r = call(t, cs, "write_stdin", map[string]any{"pid": pid, "keys": []string{"Space"}})
		if r.IsError || !strings.Contains(text(r), "rows changed since the last look") || !strings.Contains(text(r), "\n1: 10\n") {
			t.Errorf("write_stdin Space: %q", text(r))
		}
		r = call(t, cs, "bash", map[string]any{"check_pid": pid, "screen": "full"})
		if r.IsError || strings.Contains(text(r), "changed since") || !strings.Contains(text(r), "\n10\n11\n") {
			t.Errorf("check_pid screen full: %q", text(r))
		}
		r = call(t, cs, "write_stdin", map[string]any{"pid": pid, "cols": 80, "rows": 12})
		if r.IsError || !strings.HasPrefix(text(r), "[screen 80×12, ") {
			t.Errorf("resize: %q", text(r))
		}
		r = call(t, cs, "write_stdin", map[string]any{"pid": pid, "screen": "some"})
		if !r.IsError || !strings.Contains(text(r), "screen") {
			t.Errorf("bad screen: %q", text(r))
		}
		r = call(t, cs, "write_stdin", map[string]any{"pid": pid, "input": "q"})
		if r.IsError || details(t, r)["running"] != false || !strings.Contains(text(r), "exit code: 0") {
			t.Errorf("q: %q", text(r))
		}
	})
}
