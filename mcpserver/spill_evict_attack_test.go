package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// floodThenCalls runs `seq 1 3000000` in a `spillway ARGS… mcp` session,
// then n calls of `true`, and returns the session and the flood's spill
// file.
func floodThenCalls(t *testing.T, n int, args ...string) (s *mcp.ClientSession, path string) {
	t.Helper()
	s = connectStdioArgs(t, t.TempDir(), nil, args...)
	res := call(t, s, "bash", map[string]any{"command": "seq 1 3000000"})
	path, _ = field(details(t, res), "stdout.full_output_path").(string)
	if path == "" {
		t.Fatalf("the flood was not spilled: %.300s", text(res))
	}
	for i := range n {
		if res := call(t, s, "bash", map[string]any{"command": "true"}); res.IsError {
			t.Fatalf("call %d of true: %s", i+1, text(res))
		}
	}
	return s, path
}

// readAt reads path from line offset on, and returns the text and whether
// the result is an error.
func readAt(t *testing.T, cs *mcp.ClientSession, path string, offset int) (string, bool) {
	t.Helper()
	res := call(t, cs, "read", map[string]any{"path": path, "offset": offset, "limit": 2})
	return text(res), res.IsError
}

// TestAttackHistoryDeletesNamedSpillFile: after one flood and 205 calls of
// `true`, the flood's spill file was gone, and a read of it blamed the
// budget: the 200-call history had deleted it as it forgot the flood's
// call, a minute after a result had named it.
func TestAttackHistoryDeletesNamedSpillFile(t *testing.T) {
	t.Parallel()
	cs, path := floodThenCalls(t, 205)
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the flood's spill file, named a moment ago: %v", err)
	}
	got, isErr := readAt(t, cs, path, 2_999_999)
	if isErr || !strings.HasPrefix(got, "2999999\n3000000") {
		t.Errorf("read of the flood's spill file after 205 calls: %q", got)
	}
}

// TestDeletedSpillFileNamesItsCause: whatever deleted a spill file, a
// read of it says which: the history (past spill.keep_named_ms, once its
// call was forgotten), or the budget.
func TestDeletedSpillFileNamesItsCause(t *testing.T) {
	t.Parallel()
	config := func(body string) string {
		p := filepath.Join(t.TempDir(), "spillway.toml")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("history", func(t *testing.T) {
		t.Parallel()
		cs, path := floodThenCalls(t, 205, "--config", config("[spill]\nkeep_named_ms = 1\n"))
		got, isErr := readAt(t, cs, path, 1)
		if !isErr || !strings.Contains(got, "left the session's history") || strings.Contains(got, "budget") {
			t.Errorf("read of a file the history deleted: %q", got)
		}
	})
	t.Run("budget", func(t *testing.T) {
		t.Parallel()
		// Two floods of 22.9 MB within a 32 MiB budget: the second
		// deletes the first.
		cs, path := floodThenCalls(t, 0, "--config", config("[spill]\nkeep_named_ms = 1\nbudget_bytes = 33554432\n"))
		call(t, cs, "bash", map[string]any{"command": "seq 1 3000000"})
		got, isErr := readAt(t, cs, path, 1)
		if !isErr || !strings.Contains(got, "within their budget") || strings.Contains(got, "history") {
			t.Errorf("read of a file the budget deleted: %q", got)
		}
	})
}
