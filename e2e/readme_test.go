package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeBlock returns the first fenced code block of the README after
// heading (as "**opencode**"): the entry a user copies.
func readmeBlock(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), heading)
	if !ok {
		t.Fatalf("README.md does not name %q", heading)
	}
	_, rest, ok = strings.Cut(rest, "\n```")
	if !ok {
		t.Fatalf("README.md: no code block after %q", heading)
	}
	_, rest, _ = strings.Cut(rest, "\n") // the fence's language
	code, _, ok := strings.Cut(rest, "\n```")
	if !ok {
		t.Fatalf("README.md: the code block after %q does not end", heading)
	}
	return code + "\n"
}

// readmeJSON is the README's JSON entry after heading, with the spillway
// binary's path where the README says `spillway`: what the user's client
// reads once the binary is on PATH.
func readmeJSON(t *testing.T, heading, spillway string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(readmeBlock(t, heading)), &v); err != nil {
		t.Fatalf("README.md: the entry after %s is not JSON: %v", heading, err)
	}
	setCommand(v, spillway)
	return v
}

// setCommand replaces the command "spillway" anywhere in v by path.
func setCommand(v any, path string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "command" && s == "spillway" {
				v[k] = path
				continue
			}
			setCommand(x, path)
		}
	case []any:
		for i, x := range v {
			if s, ok := x.(string); ok && i == 0 && s == "spillway" {
				v[i] = path
				continue
			}
			setCommand(x, path)
		}
	}
}

// TestReadmeClaudeCodeEntry: the README's line for Claude Code, run by
// Claude Code in a clean home, adds a server that `claude mcp list`
// shows connected.
func TestReadmeClaudeCodeEntry(t *testing.T) {
	bin := clientBin(t, claudeCode)
	w := newWorkspace(t)
	line := strings.TrimSpace(readmeBlock(t, "**Claude Code**"))
	args := strings.Fields(line)
	if len(args) < 2 || args[0] != "claude" {
		t.Fatalf("README.md: the Claude Code entry is not a claude command: %q", line)
	}
	env := append(cleanEnv(t), "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"PATH="+filepath.Dir(w.spillway)+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = w.dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude %q: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run(args[1:]...)
	if out := run("mcp", "list"); !strings.Contains(out, "spillway: spillway mcp") || !strings.Contains(out, "Connected") {
		t.Errorf("after %q, claude mcp list does not show spillway connected:\n%s", line, out)
	}
}

// TestReadmeCodexEntry: the README's config.toml entry for Codex is one
// `codex mcp list` reads as a server running `spillway mcp`.
func TestReadmeCodexEntry(t *testing.T) {
	bin := clientBin(t, codex)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(readmeBlock(t, "**Codex**")), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp", "list", "--json")
	cmd.Env = append(cleanEnv(t), "CODEX_HOME="+home)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("codex mcp list: %v\n%s", err, out)
	}
	var servers []struct {
		Name      string `json:"name"`
		Transport struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"transport"`
	}
	if err := json.Unmarshal(out, &servers); err != nil {
		t.Fatalf("codex mcp list --json: %v\n%s", err, out)
	}
	if len(servers) != 1 || servers[0].Name != "spillway" || servers[0].Transport.Command != "spillway" ||
		strings.Join(servers[0].Transport.Args, " ") != "mcp" {
		t.Errorf("codex read the README's entry as %s, want one server spillway running `spillway mcp`", out)
	}
}
