package spillway

import (
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/policy"
)

// Validate holds a Go policy to the bounds of the config file's keys.
func TestPolicyValidate(t *testing.T) {
	for _, name := range policy.ProfileNames() {
		if err := mustProfile(t, name).Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, tt := range []struct {
		edit func(*Policy)
		want string
	}{
		{func(p *Policy) { p.Shell = "" }, `shell is empty; want a shell such as "bash"`},
		{func(p *Policy) { p.Timeout = 0 }, "timeout_ms must be at least 1, not 0"},
		{func(p *Policy) { p.ResultBudget = 100 }, "result_budget 100 is below 2000"},
		{func(p *Policy) { p.ErrorResultBudget = 100 }, "error result budget 100: want 0 (the result budget) or at least 2000"},
		{func(p *Policy) { p.Spill.BudgetBytes = 0 }, "spill.budget_bytes must be at least 1, not 0"},
		{func(p *Policy) { p.Bash.Stderr.MaxBytes = 0 }, "bash.stderr.max_bytes must be at least 1, not 0"},
		{func(p *Policy) { p.Bash.Stdout.Strategy = "middle" }, `bash.stdout.strategy "middle" is not a strategy`},
		{func(p *Policy) { p.Bash.Stdout.HeadShare = 2 }, "bash.stdout.head_share must be a number from 0 to 1, not 2"},
		{func(p *Policy) { p.Bash.MaxProcesses = -1 }, "bash.max_processes must not be negative"},
		{func(p *Policy) { p.Read.MaxLines = -1 }, "read.max_lines must be at least 1, not -1"},
		{func(p *Policy) { p.Grep.MaxLineChars = -1 }, "grep.max_line_chars must not be negative"},
		{func(p *Policy) { p.Ls.Limit = 0 }, "ls.limit must be at least 1, not 0"},
		{func(p *Policy) { p.Cache.Commands = []string{" "} }, "cache.commands entry 1 is empty"},
	} {
		p := DefaultPolicy()
		tt.edit(&p)
		if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("got %v, want %q", err, tt.want)
		}
	}
	// A zero policy: the first key that cannot be used.
	if err := (Policy{}).Validate(); err == nil || !strings.HasPrefix(err.Error(), "shell is empty") {
		t.Errorf("zero policy: %v", err)
	}
}

// Every config key the tool table names is a key of Policy's tags, and a
// parameter held to a ceiling is held to its key's.
func TestTableConfigKeysAreThePolicys(t *testing.T) {
	n := 0
	for _, e := range declared() {
		for _, prm := range e.Params {
			if prm.Config == "" {
				continue
			}
			n++
			var key policy.Key
			for _, k := range policy.Keys(fields.Of[Policy]("toml")) {
				if k.Name == prm.Config {
					key = k
				}
			}
			if key.Name == "" {
				t.Errorf("%s %s: config key %s is not one of Policy's", e.Name, prm.Name, prm.Config)
				continue
			}
			if hi, ok := key.Ceiling(); ok && prm.Ceiling != 0 && prm.Ceiling != hi {
				t.Errorf("%s %s: ceiling %d, its key %s's %d", e.Name, prm.Name, prm.Ceiling, key.Name, hi)
			}
		}
	}
	if n == 0 {
		t.Error("no parameter names a config key")
	}
}
