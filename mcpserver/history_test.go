package mcpserver_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The history tool over MCP: a session's cd holds, the calls are listed,
// and one is shown again with a tail without running it.
func TestHistoryTool(t *testing.T) {
	t.Parallel()
	forEachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := tr.connect(t, nil)
		call(t, cs, "bash", map[string]any{"command": "cd / && export S=1", "session": "work"})
		pwd := call(t, cs, "bash", map[string]any{"command": `pwd; echo "$S"`, "session": "work"})
		if text(pwd) != "stdout:\n/\n1\n\nexit code: 0" {
			t.Errorf("session: %q", text(pwd))
		}
		res := call(t, cs, "bash", map[string]any{"command": "seq", "args": []string{"1", "100000"}})
		id := details(t, res)["history_id"]
		if id != 3.0 {
			t.Fatalf("history_id = %v, want 3", id)
		}
		list := call(t, cs, "history", map[string]any{"session": "work"})
		if list.IsError || !strings.Contains(text(list), "#1 exit 0") || !strings.Contains(text(list), "#2 exit 0") ||
			strings.Contains(text(list), "#3") || !strings.Contains(text(list), "work: cwd /") {
			t.Errorf("list: %q", text(list))
		}
		again := call(t, cs, "history", map[string]any{"id": 3, "strategy": "tail", "max_lines": 2})
		if again.IsError || !strings.HasPrefix(text(again), "stdout:\n99999\n100000\n[tail: lines 99999-100000 of 100000") {
			t.Errorf("shown again: %q", text(again))
		}
		if bad := call(t, cs, "history", map[string]any{"id": 3, "status": "ok"}); !bad.IsError {
			t.Errorf("id with a list filter: %q", text(bad))
		}
	})
}

// Under --profile macos-shell a client written for macos-shell calls
// run_command with its own parameter names and reads its result object.
func TestSurfaceMacosShellMCP(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	// The design's /bin/zsh (which the profile keeps) may be missing here.
	config := filepath.Join(tmp, "spillway.toml")
	if err := os.WriteFile(config, []byte("shell = \"bash\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connectStdioArgs(t, tmp, nil, "--profile", "macos-shell", "--format", "json", "--config", config)
	list, err := cs.ListTools(testContext(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tool := range list.Tools {
		if tool.Name == "run_command" {
			found = true
			raw, _ := json.Marshal(tool.InputSchema)
			for _, p := range []string{"maxOutputLines", "maxErrorLines", "includeFullOutput", "args", "session"} {
				if !strings.Contains(string(raw), `"`+p+`"`) {
					t.Errorf("run_command's schema lacks %s", p)
				}
			}
		}
	}
	if !found {
		t.Fatalf("no run_command tool under macos-shell")
	}
	res := call(t, cs, "run_command", map[string]any{"command": "seq", "args": []string{"1", "600"}, "maxOutputLines": 10})
	var m map[string]any
	if err := json.Unmarshal([]byte(text(res)), &m); err != nil {
		t.Fatalf("%v: %q", err, text(res))
	}
	tr, _ := m["truncation"].(map[string]any)["stdout"].(map[string]any)
	if m["success"] != true || m["command"] != "seq 1 600" || tr["totalLines"] != 600.0 || tr["returnedLines"] != 11.0 {
		t.Errorf("run_command result: %v", m)
	}
}
