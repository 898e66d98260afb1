//go:build linux

package mcpserver_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A repository cannot loosen the person's rules: a project holding
// allow Bash(*) in .claude/settings.local.json and prefix_rule(["wget"],
// "allow") in .codex/rules/ allows neither curl, python3 -c 1 nor wget
// under the person's default = "ask", until the person trusts it (y on
// the terminal to spillway rules trust); once its files change, not
// until trusted again. Its deny entry counts throughout.
func TestProjectTrustThroughMCP(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	project, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.MkdirAll(filepath.Join(project, ".codex", "rules"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "settings.local.json"), []byte(`{"permissions": {"allow": ["Bash(*)"], "deny": ["Bash(touch *)"]}}`), 0o644)
	os.WriteFile(filepath.Join(project, ".codex", "rules", "project.rules"), []byte(`prefix_rule(["wget"], "allow")`+"\n"), 0o644)
	cfg := filepath.Join(home, "config.toml")
	os.WriteFile(cfg, []byte("[rules]\ndefault = \"ask\"\nimport = [\"claude-code\", \"codex\"]\n"), 0o644)
	env := serverEnv(t.TempDir(), "HOME="+home, "XDG_STATE_HOME="+filepath.Join(home, "state"), "CODEX_HOME=", "CLAUDE_CONFIG_DIR=")

	// The person, asked, says deny: what was asked is counted.
	var asked atomic.Int32
	opts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked.Add(1)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "deny"}}, nil
	}}
	connect := func() *mcp.ClientSession {
		cmd := exec.Command(bin, "--config", cfg, "mcp")
		cmd.Dir, cmd.Env = project, env
		stderr := &lockedBuffer{}
		cmd.Stderr = stderr
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "trust-test", Version: "1"}, opts).
			Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("connecting: %v\n%s", err, stderr)
		}
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("server stderr:\n%s", stderr)
			}
		})
		return cs
	}
	decisions := func(phase string, want map[string]string) {
		t.Helper()
		cs := connect()
		defer cs.Close()
		for cmd, w := range want {
			before := asked.Load()
			res := call(t, cs, "bash", map[string]any{"command": cmd})
			got := field(details(t, res), "rules.decision")
			if asked.Load() > before {
				got = "ask"
			}
			if got != w {
				t.Errorf("%s: %q: %v, want %s\n%s", phase, cmd, got, w, text(res))
			}
		}
	}
	untrusted := map[string]string{"curl --version": "ask", "python3 -c 1": "ask", "wget --version": "ask", "touch x": "deny"}
	decisions("untrusted", untrusted)

	trust := func() {
		t.Helper()
		cmd := exec.Command(bin, "--config", cfg, "rules", "trust")
		cmd.Dir, cmd.Env = project, env
		tty, err := pty.Start(cmd)
		if err != nil {
			t.Fatal(err)
		}
		defer tty.Close()
		r := bufio.NewReader(tty)
		var seen strings.Builder
		for !strings.Contains(seen.String(), "[y/N]") {
			b, err := r.ReadByte()
			if err != nil {
				t.Fatalf("spillway rules trust: %v\n%s", err, seen.String())
			}
			seen.WriteByte(b)
		}
		if !strings.Contains(seen.String(), "Bash(*)") || !strings.Contains(seen.String(), `prefix_rule(pattern=["wget"])`) {
			t.Errorf("the question does not show the allow entries:\n%s", seen.String())
		}
		tty.WriteString("y\n")
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("spillway rules trust: %v\n%s", err, seen.String())
			}
		case <-time.After(hangGuard):
			cmd.Process.Kill()
			t.Fatal("spillway rules trust did not end")
		}
	}
	trust()
	decisions("trusted", map[string]string{"curl --version": "allow", "python3 -c 1": "allow", "wget --version": "allow", "touch x": "deny"})

	os.WriteFile(filepath.Join(project, ".codex", "rules", "project.rules"), []byte(`prefix_rule(["wget"], "allow")`+"\nprefix_rule([\"curl\"])\n"), 0o644)
	decisions("changed", untrusted)
	trust()
	decisions("trusted again", map[string]string{"curl --version": "allow", "wget --version": "allow", "touch x": "deny"})
}
