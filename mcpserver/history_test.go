package mcpserver_test

import (
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
