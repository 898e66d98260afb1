package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Each entry of a rules list is recorded with its own line, for the
// source a result names.
func TestConfigRulesSources(t *testing.T) {
	doc := "[rules]\nallow = [\n  \"git status\",\n\n  \"npm test:*\",\n]\ndeny = [\"rm *\"]\n"
	cfg, err := ParseConfig("spillway.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p := mustProfile(t, "default")
	cfg.Apply(&p)
	if got := p.Rules.Sources["allow"]; !slices.Equal(got, []string{"spillway.toml:3", "spillway.toml:5"}) {
		t.Errorf("allow sources %q", got)
	}
	if got := p.Rules.Sources["deny"]; !slices.Equal(got, []string{"spillway.toml:7"}) {
		t.Errorf("deny sources %q", got)
	}
	if p.Rules.Default != "allow" || !p.Rules.Configured() {
		t.Errorf("default %q, configured %v", p.Rules.Default, p.Rules.Configured())
	}
	if q := mustProfile(t, "default"); q.Rules.Configured() {
		t.Error("no [rules]: rules in force")
	}
}

// A bad value in [rules] stops the start with the file, the line of the
// entry and the key.
func TestConfigRulesErrors(t *testing.T) {
	cases := []struct{ doc, want string }{
		{"[rules]\ndefault = \"maybe\"\n", `r.toml:2: rules.default: "maybe" is not a decision; want allow, ask or deny`},
		{"[rules]\ndefault = 1\n", "r.toml:2: rules.default: want a string, not an integer"},
		{"[rules]\ndeny = [\n  \"rm *\",\n  \"\",\n]\n", "r.toml:4: rules.deny: entry 2: pattern \"\" is empty"},
		{"[rules]\nask = \"git push\"\n", "r.toml:2: rules.ask: want an array of strings, not a string"},
		{"[rules]\nimport = [\"codex\", \"cursor\"]\n", `r.toml:2: rules.import: entry 2: "cursor" is not a tool whose rules spillway reads; want claude-code or codex`},
		{"[rules]\nallow_all = true\n", "r.toml:2: rules.allow_all: unknown key; [rules] takes default, allow, ask, deny, import"},
	}
	for _, c := range cases {
		_, err := ParseConfig("r.toml", []byte(c.doc))
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%q: err = %v, want a *ConfigError", c.doc, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s…", c.doc, err, c.want)
		}
	}
}
