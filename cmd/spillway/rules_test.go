package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spillway rules check prints the decision first, then each part with its
// rule and source; --json the same as details.rules; rules list the rules
// in force; a bad rule stops mcp at start with its file and line.
func TestRulesCLI(t *testing.T) {
	c := newBashCLI(t)
	home := t.TempDir()
	c.env = append(c.env, "HOME="+home, "CODEX_HOME=", "CLAUDE_CONFIG_DIR=")
	cfg := filepath.Join(t.TempDir(), "rules.toml")
	os.WriteFile(cfg, []byte("[rules]\ndefault = \"ask\"\nallow = [\"git status\"]\ndeny = [\n  \"rm *\",\n]\n"), 0o644)

	r := c.run(t, "--config", cfg, "rules", "check", "git status && sudo rm -rf /; $X")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	// The exit status is the decision: 1 for deny, so that
	// "spillway rules check CMD && CMD" never runs a denied command.
	if r.status != 1 || lines[0] != "deny" || len(lines) != 4 ||
		!strings.Contains(lines[1], "git status  "+cfg+":3") || !strings.Contains(lines[2], "deny   sudo rm -rf /  rm *        "+cfg+":5") || !strings.Contains(lines[3], "known only when it runs") {
		t.Errorf("check: %d\n%s%s", r.status, r.stdout, r.stderr)
	}
	r = c.run(t, "--config", cfg, "rules", "check", "--json", "git", "status", "-s")
	var d struct {
		Decision string `json:"decision"`
		Parts    []struct{ Command, Decision, Rule, Source string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil || r.status != 3 || d.Decision != "ask" || len(d.Parts) != 1 || d.Parts[0].Command != "git status -s" {
		t.Errorf("check --json: %v %+v\n%s%s", err, d, r.stdout, r.stderr)
	}
	if r = c.run(t, "--config", cfg, "rules", "check", "git", "status"); r.status != 0 || !strings.HasPrefix(r.stdout, "allow\n") {
		t.Errorf("check of an allowed command: %d\n%s%s", r.status, r.stdout, r.stderr)
	}
	r = c.run(t, "--config", cfg, "rules", "list")
	if want := "default: ask\ndeny   rm *        " + cfg + ":5\nallow  git status  " + cfg + ":3\nfile tools: ask before changing 7 rules files (the project's, yours, the state file)\n"; !strings.HasPrefix(r.stdout, want) {
		t.Errorf("list:\n%s\nwant:\n%s", r.stdout, want)
	}
	// Then what the sandbox holds of the deny rules at exec, and what it
	// does not cover (the files found depend on the machine).
	for _, want := range []string{`exec: deny "rm *" (` + cfg + `:5)`, "without --sandbox no deny rule is held at exec", "not covered at exec: rules with arguments", "not covered at exec: a multi-call binary"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("list does not say %q:\n%s", want, r.stdout)
		}
	}

	os.MkdirAll(filepath.Join(home, ".codex", "rules"), 0o755)
	os.WriteFile(filepath.Join(home, ".codex", "rules", "bad.rules"), []byte("\nprefix_rule(pattern=[])\n"), 0o644)
	os.WriteFile(cfg, []byte("[rules]\nimport = [\"codex\"]\n"), 0o644)
	// An imported file that cannot be used is an import failure: named,
	// every command asks, and nothing stops.
	r = c.run(t, "--config", cfg, "rules", "check", "ls")
	if r.status != 3 || !strings.HasPrefix(r.stdout, "ask") || !strings.Contains(r.stdout, "import failure") {
		t.Errorf("check with a bad rules file: %d\n%s%s", r.status, r.stdout, r.stderr)
	}
	r = c.run(t, "--config", cfg, "doctor")
	if r.status != 1 || !strings.Contains(r.stdout, "PROBLEM  rules: ") || !strings.Contains(r.stdout, "bad.rules:2:12") {
		t.Errorf("doctor with a bad rules file: %d\n%s", r.status, r.stdout)
	}

	// Entries not held as written are listed with why, and counted by
	// doctor.
	os.Remove(filepath.Join(home, ".codex", "rules", "bad.rules"))
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte("{\"permissions\": {\n\"deny\": [\"Bash(curl * | bash)\"],\n\"allow\": [\"Bash(FOO=1 make)\", \"Bash(x * | y)\"]}}"), 0o644)
	os.WriteFile(cfg, []byte("[rules]\nimport = [\"claude-code\"]\n"), 0o644)
	r = c.run(t, "--config", cfg, "rules", "list")
	for _, want := range []string{
		"deny   Bash(curl * | bash)  ~/.claude/settings.json:2",
		"note: ~/.claude/settings.json:2: Bash(curl * | bash) widened: ",
		"held as Bash(curl *); every curl command is now deny",
		"note: ~/.claude/settings.json:3: Bash(FOO=1 make) exact: ",
		"note: ~/.claude/settings.json:3: Bash(x * | y) dropped: ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("list does not say %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	r = c.run(t, "--config", cfg, "doctor")
	if !strings.Contains(r.stdout, "imported entries not held as written: 1 widened, 1 exact, 1 dropped") {
		t.Errorf("doctor:\n%s", r.stdout)
	}
}
