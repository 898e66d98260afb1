//go:build unix

package mcpserver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bombs are commands that ended the server before the limits: the shell
// parser recursed once per level, and at some 160,000 levels the Go
// runtime died of a stack overflow, which no recover catches. Each must
// now be an error naming the limit it passed, with rules configured or
// not.
var bombs = []struct {
	name, command, limit string
}{
	{"200,000 (", strings.Repeat("(", 200_000), "MaxCommandBytes"},
	{"150,000 $(", strings.Repeat("$(", 150_000), "MaxCommandBytes"},
	// Under the length ceiling, the nesting limit stops them.
	{"110,000 (", strings.Repeat("(", 110_000), "nests more than 1000 levels"},
	{"60,000 $(", strings.Repeat("$(", 60_000), "nests more than 1000 levels"},
	{"40,000 a[", "echo ${" + strings.Repeat("a[", 40_000), "nests more than 1000 levels"},
	{"30,000 if", strings.Repeat("if ", 30_000), "nests more than 1000 levels"},
}

// callBomb sends command through cs and returns what came back: the
// result's text, or the call's error.
func callBomb(t *testing.T, cs *mcp.ClientSession, command string) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": command}})
	if err != nil {
		return err.Error(), true
	}
	return text(res), res.IsError
}

// TestAttackParserBombsServe: through serve, session A sends each bomb;
// the server answers A with the limit and session B's next call answers.
// Before the limits, 200,000 ( ended the server with rules configured
// ("connection refused" for every session).
func TestAttackParserBombsServe(t *testing.T) {
	for _, withRules := range []bool{true, false} {
		name := "rules off"
		var args []string
		if withRules {
			name = "rules on"
			args = []string{"--config", rulesConfig(t)}
		}
		t.Run(name, func(t *testing.T) {
			s := startHTTP(t, nil, args...)
			a := connectHTTP(t, s.url, nil, nil, false)
			b := connectHTTP(t, s.url, nil, nil, false)
			for _, bomb := range bombs {
				start := time.Now()
				got, isErr := callBomb(t, a, bomb.command)
				t.Logf("%s: answered in %v", bomb.name, time.Since(start).Round(time.Millisecond))
				if !isErr || !strings.Contains(got, bomb.limit) {
					t.Errorf("%s: %.300s\nwant an error naming %q", bomb.name, got, bomb.limit)
				}
				if strings.Contains(got, "ask") && strings.Contains(got, "approv") {
					t.Errorf("%s was asked about: %.300s", bomb.name, got)
				}
				out := text(call(t, b, "bash", map[string]any{"command": "echo still-here"}))
				if !strings.Contains(out, "still-here") {
					t.Fatalf("after %s, session B: %s", bomb.name, out)
				}
			}
			// A message of 64 MB: an error for A, and B goes on.
			_, err := a.CallTool(testContext(t), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "echo " + strings.Repeat("x", 64<<20)}})
			if err == nil {
				t.Errorf("a 64 MB message was taken")
			}
			b2 := connectHTTP(t, s.url, nil, nil, false)
			for _, cs := range []*mcp.ClientSession{b, b2} {
				if out := text(call(t, cs, "bash", map[string]any{"command": "echo still-here"})); !strings.Contains(out, "still-here") {
					t.Fatalf("after the 64 MB message: %s", out)
				}
			}
			if s.cmd.ProcessState != nil {
				t.Fatalf("serve exited: %v", s.cmd.ProcessState)
			}
		})
	}
}

// TestAttackParserBombsStdio: the same bombs through spillway mcp; the
// session answers its next call after each.
func TestAttackParserBombsStdio(t *testing.T) {
	for _, withRules := range []bool{true, false} {
		name := "rules off"
		var args []string
		if withRules {
			name = "rules on"
			args = []string{"--config", rulesConfig(t)}
		}
		t.Run(name, func(t *testing.T) {
			cs := connectStdioArgs(t, t.TempDir(), nil, args...)
			for _, bomb := range bombs {
				got, isErr := callBomb(t, cs, bomb.command)
				if !isErr || !strings.Contains(got, bomb.limit) {
					t.Errorf("%s: %.300s\nwant an error naming %q", bomb.name, got, bomb.limit)
				}
				if out := text(call(t, cs, "bash", map[string]any{"command": "echo still-here"})); !strings.Contains(out, "still-here") {
					t.Fatalf("after %s: %s", bomb.name, out)
				}
			}
			_, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "echo " + strings.Repeat("x", 64<<20)}})
			if err == nil || !strings.Contains(err.Error(), "16 MiB") {
				t.Errorf("a 64 MB message: %v, want an error naming the 16 MiB limit", err)
			}
			if out := text(call(t, cs, "bash", map[string]any{"command": "echo still-here"})); !strings.Contains(out, "still-here") {
				t.Fatalf("after the 64 MB message: %s", out)
			}
		})
	}
}

// TestAttackCommandThatCannotStart: a command the system cannot start
// said "cannot start bash: exec: already started", hiding why; now the
// error is the system's own, or names the NUL byte.
func TestAttackCommandThatCannotStart(t *testing.T) {
	cs := connectStdio(t, t.TempDir(), nil)
	for _, c := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"NUL", map[string]any{"command": "\x00echo hi"}, "NUL byte"},
		{"argument of 200 KB", map[string]any{"command": "echo", "args": []string{strings.Repeat("x", 200<<10)}}, "argument list too long"},
	} {
		var got string
		var isErr bool
		res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "bash", Arguments: c.args})
		if err != nil {
			got, isErr = err.Error(), true
		} else {
			got, isErr = text(res), res.IsError
		}
		if !isErr || !strings.Contains(got, c.want) || strings.Contains(got, "already started") {
			t.Errorf("%s: %.300s\nwant an error naming %q", c.name, got, c.want)
		}
	}
}
