package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
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
	cases := readRound2Corpus(t)
	if n, err := strconv.Atoi(os.Getenv("SPILLWAY_E2E_RULES")); err == nil && n > 1 && n < len(cases) {
		cases = cases[:n]
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o777)
	os.Chmod(filepath.Dir(dir), 0o755)
	shell := filepath.Join(dir, "bin", "bash")
	os.MkdirAll(filepath.Dir(shell), 0o755)
	if err := os.WriteFile(shell, []byte("#!/bin/sh\nprintf '"+fakeShellMark+"\\n'\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(dir, "probe")
	got := runClaudeRules(t, bin, dir, shell, map[string]any{"allow": []string{"Bash"}}, []string{"touch " + probe})
	if _, err := os.Stat(probe); err == nil {
		t.Fatalf("Claude Code ran the probe with a real shell; the table is not run")
	}
	if !strings.Contains(got[0].Text(), fakeShellMark) {
		t.Fatalf("the probe did not reach the stand-in shell: %s", tail(got[0].Text(), 500))
	}

	cmds := make([]string, len(cases))
	for i, c := range cases {
		cmds[i] = c.Command
	}
	bash := func(ps []string) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = "Bash(" + p + ")"
		}
		return out
	}
	for _, v := range []struct {
		name        string
		permissions map[string]any
		set         *rules.Set
	}{
		{"(a) default ask, the exact allow list",
			map[string]any{"allow": bash(round2Allow), "deny": bash(round2Deny), "ask": bash(round2Ask)},
			round2Set(t, rules.Ask, round2Allow)},
		{"(b) default allow, deny and ask only",
			map[string]any{"allow": []string{"Bash"}, "deny": bash(round2Deny), "ask": bash(round2Ask)},
			round2Set(t, rules.Allow, nil)},
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

func readRound2Corpus(t *testing.T) []round2Case {
	f, err := os.Open("../internal/rules/testdata/bypass2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []round2Case
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c round2Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

func round2Set(t *testing.T, def rules.Decision, allow []string) *rules.Set {
	s := &rules.Set{Default: def}
	add := func(d rules.Decision, ps []string) {
		for _, p := range ps {
			pt, err := rules.ParsePattern(p)
			if err != nil {
				t.Fatal(err)
			}
			s.Rules = append(s.Rules, rules.Rule{Text: p, Pattern: pt, Decision: d})
		}
	}
	add(rules.Deny, round2Deny)
	add(rules.Ask, round2Ask)
	add(rules.Allow, allow)
	return s
}
