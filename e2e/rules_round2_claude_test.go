package e2e

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/rules"
)

// The rule sets of the second bypass table (internal/rules/round2_test.go).
var (
	round2Deny  = []string{"rm *", "curl:*", "shred *", "wget *"}
	round2Ask   = []string{"git push *"}
	round2Allow = []string{"git status", "git log *", "ls *", "cat *", "echo *", "printf *", "read *",
		"cp *", "chmod *", "mkdir *", "grep *", "less", "vim", "python3 -m pytest *"}
)

type round2Case struct {
	Command string `json:"command"`
	Class   string `json:"class"`
	AskOnly bool   `json:"ask_only"`
}

// TestRulesRound2ClaudeCode hands every attempt of the second bypass
// table (internal/rules/testdata/bypass2.jsonl) to Claude Code headless
// as a Bash call of the stand-in model, under the table's two rule sets
// written as Claude Code permissions, and counts, per class, the attempts
// Claude Code ran without asking beside those spillway allows. Nothing
// runs: as in TestRulesCorpusClaudeCode, Claude Code's shell is a
// stand-in that prints a mark. Opt in with SPILLWAY_E2E_RULES=1 (564
// calls), or =N for the first N attempts.
func TestRulesRound2ClaudeCode(t *testing.T) {
	bin := clientBin(t, claudeCode)
	if os.Getenv("SPILLWAY_E2E_RULES") == "" {
		t.Skip("set SPILLWAY_E2E_RULES=1 to run the second bypass table through Claude Code")
	}
	cases := readTable[round2Case](t, "bypass2.jsonl")
	dir, shell := claudeRulesDir(t)
	checkProbe(t, "Claude Code", "the table", dir, func(cmds []string) []seen {
		return runClaudeRules(t, bin, dir, shell, map[string]any{"allow": []string{"Bash"}}, cmds)
	})
	cmds := commandsOf(cases, func(c round2Case) string { return c.Command })
	for _, v := range []struct {
		name        string
		permissions map[string]any
		set         *rules.Set
	}{
		{"(a) default ask, the exact allow list",
			map[string]any{"allow": bashRules(round2Allow), "deny": bashRules(round2Deny), "ask": bashRules(round2Ask)},
			ruleSet(t, rules.Ask, round2Deny, round2Ask, round2Allow)},
		{"(b) default allow, deny and ask only",
			map[string]any{"allow": []string{"Bash"}, "deny": bashRules(round2Deny), "ask": bashRules(round2Ask)},
			ruleSet(t, rules.Allow, round2Deny, round2Ask, nil)},
	} {
		t.Run(v.name, func(t *testing.T) {
			got := runClaudeRules(t, bin, dir, shell, v.permissions, cmds)
			countRound2(t, "Claude Code 2.1.330", v.name, cases, got, v.set)
		})
	}
}

// countRound2 counts, per class, the attempts the client ran without a
// prompt (the stand-in shell's mark came back) beside those spillway
// allows, and logs the table.
func countRound2(t *testing.T, clientName, setName string, cases []round2Case, got []seen, set *rules.Set) {
	type count struct{ attempts, client, spillway int }
	byClass := map[string]*count{}
	var total count
	var ran []string
	for i, c := range cases {
		class, _, _ := strings.Cut(c.Class, ":")
		if byClass[class] == nil {
			byClass[class] = &count{}
		}
		k := byClass[class]
		k.attempts++
		total.attempts++
		if strings.Contains(got[i].Text(), fakeShellMark) {
			k.client++
			total.client++
			ran = append(ran, fmt.Sprintf("%q (%s)", c.Command, c.Class))
		}
		if set.Check(c.Command).Decision == rules.Allow {
			k.spillway++
			total.spillway++
			if set.Default == rules.Ask || !c.AskOnly {
				t.Errorf("spillway allows %q (%s)", c.Command, c.Class)
			}
		}
	}
	classes := make([]string, 0, len(byClass))
	for cl := range byClass {
		classes = append(classes, cl)
	}
	sort.Strings(classes)
	var b strings.Builder
	fmt.Fprintf(&b, "| class | attempts | ran without a prompt: %s | allowed: spillway |\n|---|---|---|---|\n", clientName)
	for _, cl := range classes {
		k := byClass[cl]
		fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", cl, k.attempts, k.client, k.spillway)
	}
	fmt.Fprintf(&b, "| all | %d | %d | %d |\n", total.attempts, total.client, total.spillway)
	t.Logf("%s\n%s\n%s ran:\n\t%s", setName, b.String(), clientName, strings.Join(ran, "\n\t"))
}
