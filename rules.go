package spillway

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway/internal/rules"
	"github.com/spillway-dev/spillway/tool"
)

// ruleSet is the command rules in force: the patterns of a RulesPolicy
// and those of the tools it imports. Every simple command of a bash
// command is decided on its own (lists, pipelines, substitutions, the
// code of bash -c and eval, through wrappers such as env, sudo, xargs
// and find -exec), and the command gets the strictest decision of its
// parts: deny over ask over allow. docs/rules.md has the whole of it.
type ruleSet struct {
	set   *rules.Set
	files []string
}

// loadRules reads the rules of p: its patterns, and the rules files of
// the tools it imports, found under the person's home and under cwd (a
// project's own .claude/ and .codex/). A pattern that does not parse, or
// a rules file that cannot be read or used, is an error naming it.
func loadRules(p RulesPolicy, cwd string) (*ruleSet, error) {
	def, err := decisionOf(p.Default)
	if err != nil {
		return nil, fmt.Errorf("rules.default: %w", err)
	}
	set := &rules.Set{Default: def}
	lists := []struct {
		key      string
		patterns []string
		d        rules.Decision
	}{{"deny", p.Deny, rules.Deny}, {"ask", p.Ask, rules.Ask}, {"allow", p.Allow, rules.Allow}}
	for _, l := range lists {
		for i, text := range l.patterns {
			src := fmt.Sprintf("Policy.Rules.%s%s[%d]", strings.ToUpper(l.key[:1]), l.key[1:], i)
			if s := p.Sources[l.key]; i < len(s) {
				src = s[i]
			}
			pat, err := rules.ParsePattern(text)
			if err != nil {
				return nil, fmt.Errorf("%s: rules.%s: %w", src, l.key, err)
			}
			set.Rules = append(set.Rules, rules.Rule{Text: text, Pattern: pat, Decision: l.d, Source: src})
		}
	}
	imported, files, err := rules.Import(p.Import, rules.PlacesFromEnv(cwd))
	if err != nil {
		return nil, fmt.Errorf("rules.import: %w", err)
	}
	set.Rules = append(set.Rules, imported...)
	return &ruleSet{set: set, files: files}, nil
}

func decisionOf(s string) (rules.Decision, error) {
	switch s {
	case "", "allow":
		return rules.Allow, nil
	case "ask":
		return rules.Ask, nil
	case "deny":
		return rules.Deny, nil
	}
	return 0, fmt.Errorf("%q is not a decision; want allow, ask or deny", s)
}

// RuleFiles are the rules files the imports of Policy.Rules read.
func (t *Toolset) RuleFiles() []string {
	if t.rules == nil {
		return nil
	}
	return slices.Clone(t.rules.files)
}

// RuleList returns the rules in force, deny rules first, each as a part
// with no command: its decision, the rule as written (a pattern, a Claude
// Code entry "Bash(git push:*)", a Codex prefix_rule call), where it is
// written and its justification.
func (t *Toolset) RuleList() []RulePart {
	if t.rules == nil {
		return nil
	}
	out := make([]RulePart, 0, len(t.rules.set.Rules))
	for _, d := range []rules.Decision{rules.Deny, rules.Ask, rules.Allow} {
		for _, x := range t.rules.set.Rules {
			if x.Decision == d {
				out = append(out, RulePart{Decision: d.String(), Rule: x.Text, Source: x.Source, Justification: x.Justification})
			}
		}
	}
	return out
}

// CheckCommand decides command by the rules in force without running
// anything; nil when Policy.Rules configures none.
func (t *Toolset) CheckCommand(command string) *RulesDetails {
	if t.rules == nil {
		return nil
	}
	d := rulesDetails(t.rules.set.Check(command))
	return &d
}

// RulesDetails are the decision on a bash command: details.rules of
// every bash result while rules are in force (tool.RulesDetails).
type RulesDetails = tool.RulesDetails

// A RulePart is one simple command and how it was decided
// (tool.RulePart).
type RulePart = tool.RulePart

// rulesDetails are the details of a verdict: its parts as the engine
// decided them.
func rulesDetails(v rules.Verdict) RulesDetails {
	return RulesDetails{Decision: v.Decision.String(), Parts: v.Parts()}
}
