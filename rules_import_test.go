package spillway

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spillway-dev/spillway/internal/rules"
)

// An administrator's deny beats the person's allow, with and without
// import, read from the managed location; an imported settings file
// that cannot be read makes every command and every file-tool call ask,
// and the toolset still starts.
func TestRulesManagedAndFailures(t *testing.T) {
	home, managed, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	os.WriteFile(filepath.Join(managed, "managed-settings.json"), []byte(`{"permissions": {"deny": ["Bash(dd:*)"]}}`), 0o644)
	for _, imp := range [][]string{nil, {"claude-code"}} {
		p := DefaultPolicy()
		p.Rules = RulesPolicy{Default: "allow", Allow: []string{"dd *"}, Import: imp, ManagedDir: managed}
		ts, err := New(Options{Cwd: cwd, Policy: &p})
		if err != nil {
			t.Fatal(err)
		}
		if d := ts.CheckCommand("dd if=/dev/zero of=x"); d.Decision != "deny" {
			t.Errorf("import %q: %+v, want deny", imp, d)
		}
		ts.Close()
	}
	// No rule configured at all: the managed settings still count.
	p := DefaultPolicy()
	p.Rules.ManagedDir = managed
	ts, err := New(Options{Cwd: cwd, Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	if d := ts.CheckCommand("dd x"); d == nil || d.Decision != "deny" {
		t.Errorf("no [rules]: %+v, want deny", d)
	}
	ts.Close()

	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.Symlink("/dev/zero", filepath.Join(home, ".claude", "settings.json"))
	p = DefaultPolicy()
	p.Rules = RulesPolicy{Default: "allow", Import: []string{"claude-code"}, ManagedDir: noManagedSettings}
	ts, err = New(Options{Cwd: cwd, Policy: &p})
	if err != nil {
		t.Fatalf("an import failure stopped the start: %v", err)
	}
	defer ts.Close()
	if d := ts.CheckCommand("ls"); d.Decision != "ask" {
		t.Errorf("ls: %+v, want ask", d)
	}
	if len(ts.ImportFailures()) != 1 {
		t.Errorf("failures: %q", ts.ImportFailures())
	}
	asks := 0
	for _, r := range ts.fileRules() {
		if r.Failure != "" && r.Decision == rules.Ask {
			asks++
		}
	}
	if asks != 3 {
		t.Errorf("file rules: %+v", ts.fileRules())
	}
}

// A spillway config inside the project is the project's: its allow
// patterns count only once the project is trusted; its deny patterns
// always.
func TestRulesProjectConfigNeedsTrust(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	// The commands' temporary directory is not where the state is.
	t.Setenv("TMPDIR", t.TempDir())
	cfg := filepath.Join(cwd, "spillway.toml")
	os.WriteFile(cfg, []byte("[rules]\n"), 0o644)
	p := DefaultPolicy()
	p.Rules = RulesPolicy{Default: "ask", Allow: []string{"curl *"}, Deny: []string{"rm *"}, ManagedDir: noManagedSettings,
		Sources: map[string][]string{"allow": {cfg + ":2"}, "deny": {cfg + ":3"}}}
	check := func(cmd string) string {
		ts, err := New(Options{Cwd: cwd, Policy: &p})
		if err != nil {
			t.Fatal(err)
		}
		defer ts.Close()
		return ts.CheckCommand(cmd).Decision
	}
	if d := check("curl x"); d != "ask" {
		t.Errorf("untrusted: curl: %s, want ask", d)
	}
	if d := check("rm x"); d != "deny" {
		t.Errorf("untrusted: rm: %s, want deny", d)
	}
	if err := p.Rules.TrustProject(cwd, "tty"); err != nil {
		t.Fatal(err)
	}
	if d := check("curl x"); d != "allow" {
		t.Errorf("trusted: curl: %s, want allow", d)
	}
	os.WriteFile(cfg, []byte("[rules]\n# changed\n"), 0o644)
	if d := check("curl x"); d != "ask" {
		t.Errorf("changed since trusted: curl: %s, want ask", d)
	}
}
