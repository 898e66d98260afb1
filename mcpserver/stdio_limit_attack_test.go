package mcpserver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAttackStdioMessageOverLimitIsAnswered: over stdio, a tools/call of
// 30 MB (over the 16 MiB a message may have) got no answer at all: the
// server logged it and the client waited for more than 200 s.
func TestAttackStdioMessageOverLimitIsAnswered(t *testing.T) {
	cs := connectStdio(t, t.TempDir(), nil)
	start := time.Now()
	_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "echo " + strings.Repeat("x", 30<<20)}})
	t.Logf("a 30 MiB call answered in %v: %v", time.Since(start).Round(time.Millisecond), err)
	if err == nil || !strings.Contains(err.Error(), "16 MiB") {
		t.Fatalf("a 30 MiB call: %v, want an error that names the 16 MiB limit", err)
	}
	// The session goes on.
	if out := text(call(t, cs, "bash", map[string]any{"command": "echo still-here"})); !strings.Contains(out, "still-here") {
		t.Errorf("after the over-long message: %s", out)
	}
}
