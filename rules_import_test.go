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
	p.Rules = RulesPolicy{Default: "allow", Import: []string{"claude-code"}, ManagedDir: NoManagedSettings}
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
