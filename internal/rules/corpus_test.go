package rules

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

// corpusRule builds a rule from the Bash(…) inner syntax or fails the
// test.
func corpusRules(t testing.TB, d Decision, patterns ...string) []Rule {
	t.Helper()
	var rs []Rule
	for _, p := range patterns {
		pt, err := ParsePattern(p)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, Rule{Text: p, Pattern: pt, Decision: d, Source: "corpus"})
	}
	return rs
}

// corpusSets are the two rule sets the bypass corpus is decided under:
// what a person who wants to be asked less writes (deny a few programs,
// ask for git push, allow the rest), and the stricter converse (ask by
// default, allow a few read-only commands), with the same deny and ask
// rules.
func corpusSets(t testing.TB) (allowDefault, askDefault *Set) {
	deny := corpusRules(t, Deny, "rm *", "curl:*", "shred *")
	ask := corpusRules(t, Ask, "git push *")
	allowDefault = &Set{Default: Allow, Rules: append(append([]Rule{}, deny...), ask...)}
	allow := corpusRules(t, Allow, "git status", "git log *", "ls *", "echo *", "cat *", "cd:*", "npm test:*", "grep *", "true")
	askDefault = &Set{Default: Ask, Rules: append(append(append([]Rule{}, deny...), ask...), allow...)}
	return
}

type corpusCase struct {
	Command      string `json:"command"`
	DefaultAllow string `json:"default_allow"`
	DefaultAsk   string `json:"default_ask"`
	From         string `json:"from"`
}

func readCorpus(t testing.TB) []corpusCase {
	t.Helper()
	f, err := os.Open("testdata/bypass.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []corpusCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("testdata/bypass.jsonl line %d: %v", len(cs)+1, err)
		}
		cs = append(cs, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestBypassCorpus decides every attempt of testdata/bypass.jsonl under
// both rule sets: each must come to the decision written beside it, and
// none may be allow when any part is denied or not known.
func TestBypassCorpus(t *testing.T) {
	allowDefault, askDefault := corpusSets(t)
	cases := readCorpus(t)
	attempts := 0
	for _, c := range cases {
		if c.DefaultAllow != "allow" || c.DefaultAsk != "allow" {
			attempts++
		}
		for _, run := range []struct {
			name string
			set  *Set
			want string
		}{{"default allow", allowDefault, c.DefaultAllow}, {"default ask", askDefault, c.DefaultAsk}} {
			v := run.set.Check(c.Command)
			if v.Decision.String() != run.want {
				t.Errorf("%s: %q (%s) = %s, want %s; parts:%s", run.name, c.Command, c.From, v.Decision, run.want, partsText(v))
			}
			for _, p := range v.Parts() {
				if decided(p) > v.Decision {
					t.Errorf("%s: %q: part %q is %s but the whole is %s", run.name, c.Command, p.Command, p.Decision, v.Decision)
				}
			}
		}
	}
	if attempts < 80 {
		t.Errorf("the corpus holds %d bypass attempts, want at least 80", attempts)
	}
	t.Logf("%d commands, %d of them bypass attempts", len(cases), attempts)
}

func partsText(v Verdict) string {
	s := ""
	for _, p := range v.Parts() {
		r := ""
		if p.Rule != "" {
			r = " rule " + p.Rule
		}
		s += "\n\t" + p.Decision + " " + p.Command + r + " " + p.Reason
	}
	return s
}

// decided is the Decision whose word p's Decision is; a word that is none
// of them is stricter than deny, so that a test comparing it fails.
func decided(p tool.RulePart) Decision {
	for _, d := range []Decision{Allow, Ask, Deny} {
		if p.Decision == d.String() {
			return d
		}
	}
	return Deny + 1
}
