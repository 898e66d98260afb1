package rules

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestReadClaudeFixtures(t *testing.T) {
	home, _ := filepath.Abs("testdata/claude/home")
	cwd, _ := filepath.Abs("testdata/claude/project")
	im := Import([]string{"claude-code"}, Places{Home: home, Cwd: cwd, Trust: Trust{Trusted: []string{cwd}}})
	rules, files := im.Rules, im.Read
	if len(im.Failures) > 0 {
		t.Fatal(im.Failures)
	}
	if len(files) != 3 {
		t.Fatalf("files read: %q", files)
	}
	type want struct {
		text, source string
		d            Decision
	}
	var got []want
	for _, r := range rules {
		got = append(got, want{r.Text, r.Source, r.Decision})
		if len(r.Pattern.Words) == 0 {
			t.Errorf("%s: no words", r.Text)
		}
	}
	wants := []want{
		{"Bash(npm run test:*)", "~/.claude/settings.json:4", Allow},
		{"Bash(git status)", "~/.claude/settings.json:5", Allow},
		{"Bash(curl:*)", "~/.claude/settings.json:9", Deny},
		{"Bash(git push:*)", "~/.claude/settings.json:13", Ask},
		{"Bash(rm -rf:*)", cwd + "/.claude/settings.json:4", Deny},
		{"Bash(go test:*)", cwd + "/.claude/settings.local.json:4", Allow},
	}
	if !slices.Equal(got, wants) {
		t.Errorf("rules:\n got %+v\nwant %+v", got, wants)
	}
}

// CLAUDE_CONFIG_DIR replaces ~/.claude for the user's settings, and a
// working directory that is the home is read once.
func TestClaudePlaces(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{"permissions": {"deny": ["Bash(a)"]}}`), 0o644)
	os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"permissions": {"deny": ["Bash(b)"]}}`), 0o644)
	rules := Import([]string{"claude-code"}, Places{Home: home, Cwd: home, ClaudeConfigDir: dir}).Rules
	var texts []string
	for _, r := range rules {
		texts = append(texts, r.Text)
	}
	if !slices.Equal(texts, []string{"Bash(b)", "Bash(a)"}) {
		t.Errorf("with CLAUDE_CONFIG_DIR and cwd = home: %q", texts)
	}
	rules = Import([]string{"claude-code"}, Places{Home: home, Cwd: home}).Rules
	if len(rules) != 1 {
		t.Errorf("cwd = home: %d rules; want the file once", len(rules))
	}
}

func TestParseClaudeErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"not JSON", "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\",]\n  }\n}", "s.json:3: not JSON: invalid character ']' looking for beginning of value"},
		{"truncated", "{\"permissions\": {\"allow\": [", "s.json:1: not JSON: the file ends inside a value"},
		{"not an object", `["Bash(ls)"]`, "s.json:1: want an object, not a list"},
		{"permissions a list", `{"permissions": []}`, "s.json:1: want an object, not a list"},
		{"allow a string", "{\"permissions\": {\n\"allow\": \"Bash(ls)\"}}", "s.json:2: permissions.allow: want a list of strings, not a string"},
		{"managed only a string", `{"allowManagedPermissionRulesOnly": "yes"}`, "s.json:1: allowManagedPermissionRulesOnly: want true or false, not a string"},
		{"trailing", `{} {}`, "s.json:1: text after the settings object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseClaude("s.json", []byte(c.src))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v (%T), want a *FileError", err, err)
			}
			if err.Error() != c.want {
				t.Errorf("err:\n got %s\nwant %s", err, c.want)
			}
		})
	}
}

// Other tools' entries, other keys and an empty file are no rules; bare
// "Bash" and "Bash(*)" are every command.
func TestParseClaudeOthers(t *testing.T) {
	p, err := ParseClaude("s.json", []byte(`{"permissions": {"allow": ["Read", "WebFetch(domain:x.com)", "mcp__x__y", "Bash", "Bash(*)", "Bash()"], "additionalDirectories": ["../x"]}, "hooks": {"a": [1, {"b": null}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	rules := p.Rules
	if len(rules) != 3 || !rules[0].Pattern.Prefix || len(rules[0].Pattern.Words) != 0 || !rules[1].Pattern.Prefix || !rules[2].Pattern.Prefix {
		t.Errorf("rules: %+v", rules)
	}
	if len(p.FileRules) != 1 || p.FileRules[0].Kind != FileRead || p.FileRules[0].Pattern != "" {
		t.Errorf("file rules: %+v", p.FileRules)
	}
	if p, err := ParseClaude("s.json", []byte(" \n")); err != nil || len(p.Rules) != 0 {
		t.Errorf("empty file: %v, %v", p, err)
	}
}

// ParseClaude never panics; it returns rules with a source and a known
// decision, or a *FileError.
func FuzzParseClaude(f *testing.F) {
	for _, p := range []string{"testdata/claude/home/.claude/settings.json", "testdata/claude/project/.claude/settings.local.json"} {
		src, _ := os.ReadFile(p)
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := ParseClaude("s.json", src)
		rules := p.Rules
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err %v is a %T", err, err)
			}
			return
		}
		for _, r := range rules {
			if r.Source == "" || r.Decision < Allow || r.Decision > Deny {
				t.Fatalf("rule %+v", r)
			}
		}
		// Never looser than written: a note on an allow entry never
		// holds a rule, and a widened entry is deny or ask.
		for _, n := range p.Notes {
			if n.Action == Widened && n.Held == "" {
				t.Fatalf("widened without a rule: %+v", n)
			}
		}
	})
}
