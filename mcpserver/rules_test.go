//go:build unix

package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rulesConfig writes a config whose rules deny touch and ask before
// mkdir, and returns its path.
func rulesConfig(t *testing.T) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "rules.toml")
	doc := "[rules]\ndeny = [\"touch *\"]\nask = [\n  \"mkdir *\",\n]\n"
	if err := os.WriteFile(cfg, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// Through MCP, a denied command never runs: the marker file it would
// make is absent, and the error result names the part, the rule and its
// source.
func TestRulesDenyThroughMCP(t *testing.T) {
	t.Parallel()
	cfg := rulesConfig(t)
	cs := connectStdioArgs(t, t.TempDir(), nil, "--config", cfg)
	m := filepath.Join(t.TempDir(), marker("deny"))
	res := call(t, cs, "bash", map[string]any{"command": "touch " + m})
	if exists(m) {
		t.Fatal("the denied command ran")
	}
	got := text(res)
	if !res.IsError || !strings.Contains(got, "`touch "+m+"`: denied by the rule `touch *` ("+cfg+":2)") {
		t.Errorf("result:\n%s", got)
	}
	d := details(t, res)
	if field(d, "rules.decision") != "deny" {
		t.Errorf("details.rules = %v", d["rules"])
	}
	res = call(t, cs, "bash", map[string]any{"command": "echo ok"})
	if res.IsError || field(details(t, res), "rules.decision") != "allow" {
		t.Errorf("an allowed command: %s %v", text(res), details(t, res)["rules"])
	}
}

// ask: a client that answers the form decides; nothing runs before the
// answer, and each of the three choices does what it says.
func TestRulesAskThroughMCP(t *testing.T) {
	t.Parallel()
	for _, choice := range []string{"allow once", "allow for this session", "deny"} {
		t.Run(choice, func(t *testing.T) {
			t.Parallel()
			cfg := rulesConfig(t)
			dir := filepath.Join(t.TempDir(), marker("ask"))
			var asked atomic.Int32
			var message atomic.Value
			opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked.Add(1)
				message.Store(req.Params.Message)
				if req.Params.Mode != "form" && req.Params.Mode != "" {
					t.Errorf("mode %q", req.Params.Mode)
				}
				if exists(dir) {
					t.Error("the command ran before the answer")
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": choice}}, nil
			}}
			cs := connectStdioArgs(t, t.TempDir(), opts, "--config", cfg)
			for i := range 2 {
				os.Remove(dir)
				res := call(t, cs, "bash", map[string]any{"command": "mkdir " + dir})
				if exists(dir) != (choice != "deny") {
					t.Errorf("call %d: ran %v:\n%s", i, exists(dir), text(res))
				}
				want := int32(i + 1)
				if choice == "allow for this session" {
					want = 1
				}
				if asked.Load() != want {
					t.Errorf("call %d: asked %d times, want %d", i, asked.Load(), want)
				}
				if choice == "deny" && (!res.IsError || !strings.Contains(text(res), "the user denied the command")) {
					t.Errorf("denied: %s", text(res))
				}
			}
			msg, _ := message.Load().(string)
			if !strings.Contains(msg, "Command: mkdir "+dir) || !strings.Contains(msg, "In: ") || !strings.Contains(msg, "(rule mkdir *, "+cfg+":4)") {
				t.Errorf("message:\n%s", msg)
			}
		})
	}
}

// A client without form elicitation: the question waits in the
// person's console for the call's timeout; then nothing has run, and
// the model is told to have the person approve it there
// (console_test.go has the rest).
func TestRulesAskWithoutElicitation(t *testing.T) {
	t.Parallel()
	cfg := rulesConfig(t)
	cs := connectStdioArgs(t, t.TempDir(), nil, "--config", cfg)
	dir := filepath.Join(t.TempDir(), marker("noask"))
	res := call(t, cs, "bash", map[string]any{"command": "mkdir " + dir, "timeout": 200})
	if exists(dir) {
		t.Fatal("the command ran")
	}
	want := "[waiting for approval: nothing ran; the person can approve it in spillway console, then run the same command again]"
	if got := text(res); !res.IsError || got != want {
		t.Errorf("result:\n%s\nwant:\n%s", got, want)
	}
}

// A file tool's question reaches the client's form as bash's does:
// nothing is written before the answer, and the answer decides.
func TestFileToolAskThroughMCP(t *testing.T) {
	t.Parallel()
	for _, choice := range []string{"allow once", "deny"} {
		t.Run(choice, func(t *testing.T) {
			t.Parallel()
			cfg := rulesConfig(t)
			dir := t.TempDir()
			envrc := filepath.Join(dir, ".envrc")
			var message atomic.Value
			opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				message.Store(req.Params.Message)
				if exists(envrc) {
					t.Error("the file was written before the answer")
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": choice}}, nil
			}}
			cs := connectStdioArgs(t, dir, opts, "--config", cfg)
			res := call(t, cs, "write", map[string]any{"path": envrc, "content": "echo hi\n"})
			if exists(envrc) != (choice != "deny") {
				t.Errorf("written %v:\n%s", exists(envrc), text(res))
			}
			if choice == "deny" && (!res.IsError || !strings.Contains(text(res), "the user denied the change")) {
				t.Errorf("denied: %s", text(res))
			}
			if msg, _ := message.Load().(string); !strings.Contains(msg, ".envrc") {
				t.Errorf("asked %q", msg)
			}
		})
	}
}
