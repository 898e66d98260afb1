package rules

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// round2Sets are the rule sets of the second bypass table: the allow
// list written as exact patterns a person would write, under default
// ask; and the same deny and ask rules under default allow.
func round2Sets(t testing.TB) (askDefault, allowDefault *Set) {
	deny := corpusRules(t, Deny, "rm *", "curl:*", "shred *", "wget *")
	ask := corpusRules(t, Ask, "git push *")
	allow := corpusRules(t, Allow, "git status", "git log *", "ls *", "cat *", "echo *", "printf *", "read *",
		"cp *", "chmod *", "mkdir *", "grep *", "less", "vim", "python3 -m pytest *")
	askDefault = &Set{Default: Ask, Rules: append(append(append([]Rule{}, deny...), ask...), allow...)}
	allowDefault = &Set{Default: Allow, Rules: append(append([]Rule{}, deny...), ask...)}
	return
}

type round2Case struct {
	Command string `json:"command"`
	Class   string `json:"class"`
	// ExecOnly marks an attempt that reaches a denied program only
	// through a file: the parser cannot see it under default allow.
	ExecOnly bool `json:"exec_only"`
	// AskOnly marks an attempt on allow rules alone (a program written
	// as a path): under default allow it names no denied program.
	AskOnly bool `json:"ask_only"`
}

func readRound2(t testing.TB) []round2Case {
	t.Helper()
	f, err := os.Open("testdata/bypass2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []round2Case
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c round2Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("testdata/bypass2.jsonl line %d: %v", len(cs)+1, err)
		}
		cs = append(cs, c)
	}
	return cs
}

// TestBypassRound2 holds every attempt of testdata/bypass2.jsonl: under
// default ask with the exact allow list none is allowed; under default
// allow with the deny rules none is allowed but the ones marked
// exec-only.
func TestBypassRound2(t *testing.T) {
	askDefault, allowDefault := round2Sets(t)
	cases := readRound2(t)
	classes := map[string]int{}
	for _, c := range cases {
		classes[c.Class]++
		if v := askDefault.Check(c.Command); v.Decision == Allow {
			t.Errorf("default ask: %q (%s) is allowed;%s", c.Command, c.Class, partsText(v))
		}
		v := allowDefault.Check(c.Command)
		if v.Decision == Allow && !c.ExecOnly && !c.AskOnly {
			t.Errorf("default allow: %q (%s) is allowed;%s", c.Command, c.Class, partsText(v))
		}
	}
	if len(cases) < 150 {
		t.Errorf("the table holds %d attempts, want at least 150", len(cases))
	}
	for cl, n := range classes {
		t.Logf("%3d  %s", n, cl)
	}
}

// everyday are commands that stay allowed under both round-2 sets.
var everyday = []string{
	"git status",
	"ls -la",
	"echo hi | wc -l",
	"x=3; echo $((x + 1))",
	"for f in a b c; do echo $f; done",
	"for i in 1 2 3; do echo $((i * 2)); done",
	"n=0; n=$((n + 1)); echo $n",
	"x=5; (( x > 2 )) && echo big",
	"x=2; [[ $x -eq 2 ]] && echo two",
	"echo $#",
	"s=hello; echo ${s:1:2} ${#s}",
	"cat README.md | grep -n foo",
	"mkdir -p build && cp a.txt build/",
	"git log --oneline -5",
	"read -r line < f; echo \"$line\"",
	"printf '%s\\n' a b",
	"set -euo pipefail; ls",
	"for ((i = 0; i < 3; i++)); do echo $i; done",
	"count=0; for f in *.go; do count=$((count + 1)); done; echo $count",
	"echo $((RANDOM % 10))",
	"x=1; while [ $x -lt 3 ]; do x=$((x + 1)); done",
}

func TestEverydayStaysAllowed(t *testing.T) {
	askDefault, allowDefault := round2Sets(t)
	allowDefault.Rules = nil
	for _, in := range everyday {
		for name, s := range map[string]*Set{"default ask": askDefault, "default allow": allowDefault} {
			if name == "default ask" && (in == "echo hi | wc -l") {
				// wc is not on the allow list.
				continue
			}
			if v := s.Check(in); v.Decision != Allow {
				t.Errorf("%s: %q = %v;%s", name, in, v.Decision, partsText(v))
			}
		}
	}
}
