package rules

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
)

// The fixtures decided by Codex's own `codex execpolicy check` and by
// spillway give the same decisions. It needs codex on PATH (npm install
// @openai/codex) and is skipped without it.
func TestCodexDecisionsEqualCodex(t *testing.T) {
	codex, err := exec.LookPath("codex")
	if err != nil {
		t.Skip("codex is not installed")
	}
	home, _ := filepath.Abs("testdata/codex/home")
	cwd, _ := filepath.Abs("testdata/codex/project")
	im := Import([]string{"codex"}, Places{Home: home, Cwd: cwd, Trust: Trust{Trusted: []string{cwd}}})
	if len(im.Failures) > 0 {
		t.Fatal(im.Failures)
	}
	rules, files := im.Rules, im.Read
	set := &Set{Default: Allow, Rules: rules}
	commands := [][]string{
		{"ls"}, {"ls", "-la", "/tmp"}, {"cargo", "test", "--release"}, {"cargo", "build"},
		{"echo", "Hello, world!"}, {"echo", "Hello,", "world!"},
		{"git", "push", "origin", "main"}, {"git", "fetch"}, {"git", "pull"}, {"git", "status"},
		{"rm", "-rf", "build"}, {"rmdir", "x"}, {"gh", "pr", "view", "7"}, {"gh", "issue", "list"},
		{"gh", "repo", "clone", "x"}, {"kubectl", "delete", "pod", "x"}, {"kubectl", "get", "pods"},
		{"helm", "delete", "r"}, {"make", "deploy"}, {"make", "test"}, {"python3", "-c", "print(1)"},
	}
	args := []string{"execpolicy", "check"}
	for _, f := range files {
		args = append(args, "--rules", f)
	}
	for _, argv := range commands {
		out, err := exec.Command(codex, append(args, argv...)...).Output()
		if err != nil {
			t.Fatalf("codex %q: %v", argv, err)
		}
		var res struct {
			Decision     string            `json:"decision"`
			MatchedRules []json.RawMessage `json:"matchedRules"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("codex %q: %s: %v", argv, out, err)
		}
		v := set.Check(shlexJoin(argv))
		if len(v.Parts()) != 1 {
			t.Fatalf("%q: %d parts", argv, len(v.Parts()))
		}
		p := v.Parts()[0]
		switch {
		case len(res.MatchedRules) == 0:
			if p.Rule != "" {
				t.Errorf("%q: codex matches no rule, spillway %s by %s", argv, p.Decision, p.Rule)
			}
		case p.Rule == "":
			t.Errorf("%q: codex decides %s, spillway matches no rule", argv, res.Decision)
		case codexWord(decided(p)) != res.Decision:
			t.Errorf("%q: codex decides %s, spillway %s (%s)", argv, res.Decision, codexWord(decided(p)), p.Rule)
		}
	}
}
