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
	rules, files, err := Import([]string{"claude-code"}, Places{Home: home, Cwd: cwd})
	if err != nil {
		t.Fatal(err)
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
	rules, _, err := Import([]string{"claude-code"}, Places{Home: home, Cwd: home, ClaudeConfigDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, r := range rules {
		texts = append(texts, r.Text)
	}
	if !slices.Equal(texts, []string{"Bash(b)", "Bash(a)"}) {
		t.Errorf("with CLAUDE_CONFIG_DIR and cwd = home: %q", texts)
	}
	rules, _, err = Import([]string{"claude-code"}, Places{Home: home, Cwd: home})
	if err != nil || len(rules) != 1 {
		t.Errorf("cwd = home: %d rules, %v; want the file once", len(rules), err)
	}
}

func TestParseClaudeErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"not JSON", "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls)\",]\n  }\n}", "s.json:3: not JSON: invalid character ']' looking for beginning of value"},
		{"truncated", "{\"permissions\": {\"allow\": [", "s.json:1: not JSON: the file ends inside a value"},
		{"not an object", `["Bash(ls)"]`, "s.json:1: want an object, not a list"},
		{"permissions a list", `{"permissions": []}`, "s.json:1: want an object, not a list"},
		{"allow a string", "{\"permissions\": {\n\"allow\": \"Bash(ls)\"}}", "s.json:2: permissions.allow: want a list of strings, not a string"},
		{"entry a number", "{\"permissions\": {\"deny\": [\n1]}}", "s.json:2: permissions.deny: want a list of strings, not one with a number"},
		{"unclosed", "{\"permissions\": {\"ask\": [\n\n\"Bash(git push:*\"]}}", `s.json:3: permissions.ask: "Bash(git push:*": the Bash( is not closed by a )`},
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
	rules, err := ParseClaude("s.json", []byte(`{"permissions": {"allow": ["Read", "WebFetch(domain:x.com)", "mcp__x__y", "Bash", "Bash(*)"], "additionalDirectories": ["../x"]}, "hooks": {"a": [1, {"b": null}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != 2 || !rules[0].Pattern.Prefix || len(rules[0].Pattern.Words) != 0 || !rules[1].Pattern.Prefix {
		t.Errorf("rules: %+v", rules)
	}
	if rules, err := ParseClaude("s.json", []byte(" \n")); err != nil || len(rules) != 0 {
		t.Errorf("empty file: %v, %v", rules, err)
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
		rules, err := ParseClaude("s.json", src)
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
	})
}
