package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/rules"
)

// runCodexRules runs one headless Codex session whose stand-in model
// calls exec_command with each command in turn, through shell, under the
// given .rules text and approval policy, and returns what Codex handed
// back for each.
func runCodexRules(t *testing.T, bin, dir, shell, rulesText, approval string, cmds []string) []seen {
	t.Helper()
	calls := make([]call, len(cmds))
	for i, c := range cmds {
		calls[i] = call{Tool: "exec_command", Args: map[string]any{"cmd": c, "shell": shell, "login": false}}
	}
	api := &modelAPI{t: t, script: calls, toolName: func(s string) string { return s }}
	addr, stop := serveModelAPI(t, api)
	defer stop()

	home, err := os.MkdirTemp(dir, "codex")
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(home, "work")
	os.MkdirAll(work, 0o755)
	os.MkdirAll(filepath.Join(home, "rules"), 0o755)
	if err := os.WriteFile(filepath.Join(home, "rules", "default.rules"), []byte(rulesText), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`model = "gpt-5"
model_provider = "standin"
approval_policy = %q
sandbox_mode = "danger-full-access"

[model_providers.standin]
name = "stand-in"
base_url = %q
wire_api = "responses"
env_key = "STANDIN_KEY"
`, approval, "http://"+addr+"/v1")
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	// Codex runs commands with /bin/bash (/usr/bin/bash) whatever SHELL
	// says: in a mount namespace of its own, the stand-in is bound there.
	cmd := exec.CommandContext(ctx, "unshare", "-m", "--propagation", "private", "sh", "-c",
		`mount --bind "$0" /usr/bin/bash && exec "$@"`, shell, bin, "exec", "--skip-git-repo-check", "run the commands")
	cmd.Dir = work
	cmd.Env = append(cleanEnv(t), "CODEX_HOME="+home, "STANDIN_KEY=stand-in", "SHELL="+shell, "PWD="+work)
	return runRulesSession(t, "Codex", "codex", cmd, api)
}

// TestRulesRound2Codex is TestRulesRound2ClaudeCode for Codex 0.169.0:
// the deny and ask rules as Codex prefix_rule entries (forbidden,
// prompt), under approval_policy "never": what no rule forbids or
// asks runs. Only set (b): Codex 0.169.0 has no policy that asks for a
// command no rule names ("untrusted" is refused at start as no longer
// supported; under the others such a command runs in Codex's sandbox),
// so set (a)'s default ask has no Codex counterpart. Codex runs commands with
// /bin/bash whatever SHELL says, so, as root, Codex runs in a mount
// namespace of its own where the stand-in shell is bound over
// /usr/bin/bash; a first session checks that a real shell is not used.
// Opt in with SPILLWAY_E2E_RULES=1.
func TestRulesRound2Codex(t *testing.T) {
	bin := clientBin(t, codex)
	if os.Getenv("SPILLWAY_E2E_RULES") == "" {
		t.Skip("set SPILLWAY_E2E_RULES=1 to run the second bypass table through Codex")
	}
	if os.Geteuid() != 0 {
		t.Skip("Codex runs /bin/bash whatever SHELL says: only as root can the test put a stand-in shell in its place")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare is missing")
	}
	cases := readTable[round2Case](t, "bypass2.jsonl")
	dir := t.TempDir()
	shell := standInShell(t, dir)
	checkProbe(t, "Codex", "the table", dir, func(cmds []string) []seen {
		return runCodexRules(t, bin, dir, shell, "", "never", cmds)
	})
	cmds := commandsOf(cases, func(c round2Case) string { return c.Command })
	prefix := func(p string) string {
		p = strings.TrimSuffix(strings.TrimSuffix(p, " *"), ":*")
		var q []string
		for _, w := range strings.Fields(p) {
			q = append(q, strconv.Quote(w))
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	var denyAsk strings.Builder
	for _, p := range round2Deny {
		fmt.Fprintf(&denyAsk, "prefix_rule(pattern = %s, decision = \"forbidden\")\n", prefix(p))
	}
	for _, p := range round2Ask {
		fmt.Fprintf(&denyAsk, "prefix_rule(pattern = %s, decision = \"prompt\")\n", prefix(p))
	}
	for _, v := range []struct {
		name, rules, approval string
		set                   *rules.Set
	}{
		{"(b) default allow, deny and ask only", denyAsk.String(), "never", ruleSet(t, rules.Allow, round2Deny, round2Ask, nil)},
	} {
		t.Run(v.name, func(t *testing.T) {
			got := runCodexRules(t, bin, dir, shell, v.rules, v.approval, cmds)
			countRound2(t, "Codex 0.169.0", v.name, cases, got, v.set)
		})
	}
}
