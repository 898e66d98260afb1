package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/rules"
)

// The rule sets the bypass corpus is decided under, in the Bash(…)
// inner syntax both Claude Code and spillway read.
var (
	corpusDeny  = []string{"rm *", "curl:*", "shred *"}
	corpusAsk   = []string{"git push *"}
	corpusAllow = []string{"git status", "git log *", "ls *", "echo *", "cat *", "cd:*", "npm test:*", "grep *", "true"}
)

// TestRulesCorpusClaudeCode hands every command of spillway's bypass
// corpus to Claude Code headless as a Bash tool call of a stand-in model,
// under the same rules as spillway's corpus test, and counts the commands
// Claude Code ran without asking, beside the count spillway allows.
//
// Nothing of the corpus runs: Claude Code's shell is a stand-in
// (CLAUDE_CODE_SHELL) that only prints a mark, a first session checks
// that it is the shell Claude Code uses, and as root Claude Code runs as
// nobody. Opt in with SPILLWAY_E2E_RULES=1 (about 460 calls), or =N for the
// first N commands.
func TestRulesCorpusClaudeCode(t *testing.T) {
	bin := clientBin(t, claudeCode)
	if os.Getenv("SPILLWAY_E2E_RULES") == "" {
		t.Skip("set SPILLWAY_E2E_RULES=1 to run the rules corpus through Claude Code")
	}
	cases := readTable[bypassCase](t, "bypass.jsonl")
	dir, shell := claudeRulesDir(t)
	checkProbe(t, "Claude Code", "the corpus", dir, func(cmds []string) []seen {
		return runClaudeRules(t, bin, dir, shell, map[string]any{"allow": []string{"Bash"}}, cmds)
	})
	cmds := commandsOf(cases, func(c bypassCase) string { return c.Command })
	for _, v := range []struct {
		name        string
		permissions map[string]any
		set         *rules.Set
		want        func(bypassCase) string
	}{
		{"deny rm, curl, shred; ask git push; Bash otherwise allowed",
			map[string]any{"allow": []string{"Bash"}, "deny": bashRules(corpusDeny), "ask": bashRules(corpusAsk)},
			ruleSet(t, rules.Allow, corpusDeny, corpusAsk, nil), func(c bypassCase) string { return c.DefaultAllow }},
		{"the same deny and ask; allow a few read-only commands; ask for the rest",
			map[string]any{"allow": bashRules(corpusAllow), "deny": bashRules(corpusDeny), "ask": bashRules(corpusAsk)},
			ruleSet(t, rules.Ask, corpusDeny, corpusAsk, corpusAllow), func(c bypassCase) string { return c.DefaultAsk }},
	} {
		t.Run(v.name, func(t *testing.T) {
			got := runClaudeRules(t, bin, dir, shell, v.permissions, cmds)
			ranClaude, ranSpillway, attempts, claudeEscapes := 0, 0, 0, 0
			var escapes []string
			for i, c := range cases {
				ran := strings.Contains(got[i].Text(), fakeShellMark)
				allowed := v.set.Check(c.Command).Decision == rules.Allow
				notAllowed := v.want(c) != "allow"
				if notAllowed {
					attempts++
				}
				if ran {
					ranClaude++
				}
				if allowed {
					ranSpillway++
				}
				if ran && notAllowed {
					claudeEscapes++
					escapes = append(escapes, fmt.Sprintf("%q (%s)", c.Command, c.From))
				}
				if allowed && notAllowed {
					t.Errorf("spillway allows %q, which its corpus says is %s", c.Command, v.want(c))
				}
			}
			t.Logf("%d commands, %d that spillway does not allow; ran without a prompt: Claude Code %d, spillway %d; of those spillway does not allow, Claude Code ran %d:\n\t%s",
				len(cases), attempts, ranClaude, ranSpillway, claudeEscapes, strings.Join(escapes, "\n\t"))
		})
	}
}

type bypassCase struct {
	Command      string `json:"command"`
	DefaultAllow string `json:"default_allow"`
	DefaultAsk   string `json:"default_ask"`
	From         string `json:"from"`
}

// claudeRulesDir makes the directory of a rules test's Claude Code
// sessions, with the stand-in shell in it.
func claudeRulesDir(t *testing.T) (dir, shell string) {
	t.Helper()
	dir = t.TempDir()
	// Claude Code may run as nobody (runClaudeRules): it must reach the
	// directory.
	os.Chmod(dir, 0o777)
	os.Chmod(filepath.Dir(dir), 0o755)
	return dir, standInShell(t, dir)
}

// runClaudeRules runs one headless Claude Code session whose stand-in
// model calls Bash with each command in turn, under the given
// permissions, and returns what Claude Code handed back for each.
func runClaudeRules(t *testing.T, bin, dir, shell string, permissions map[string]any, cmds []string) []seen {
	t.Helper()
	calls := make([]call, len(cmds))
	for i, c := range cmds {
		calls[i] = call{Tool: "Bash", Args: map[string]any{"command": c, "description": "corpus command"}}
	}
	api := &modelAPI{t: t, script: calls, toolName: func(s string) string { return s }}
	addr, stop := serveModelAPI(t, api)
	defer stop()

	home, err := os.MkdirTemp(dir, "home")
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(home, "work")
	os.MkdirAll(work, 0o777)
	settings, _ := json.Marshal(map[string]any{"permissions": permissions})
	settingsFile := filepath.Join(home, "settings.json")
	os.WriteFile(settingsFile, settings, 0o644)
	filepath.Walk(home, func(p string, _ os.FileInfo, _ error) error { return os.Chmod(p, 0o777) })

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	args := []string{bin, "-p", "run the commands", "--settings", settingsFile, "--output-format", "json"}
	if os.Geteuid() == 0 {
		// As root, Claude Code runs as nobody: should anything reach a
		// real shell after all, it can write nothing of the machine's.
		args = append([]string{"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"}, args...)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = work
	cmd.Env = append(cleanEnv(t), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "PWD="+work,
		"ANTHROPIC_BASE_URL=http://"+addr, "ANTHROPIC_API_KEY=sk-ant-stand-in",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_SHELL="+shell, "SHELL="+shell)
	return runRulesSession(t, "Claude Code", "claude", cmd, api)
}
