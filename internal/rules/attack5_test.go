package rules

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// TestBypassRound5 holds the attempts of testdata/bypass5.jsonl, found
// by an outside attack through real MCP calls, under the same two rule
// sets as the round-2 table: none is allowed under default ask with the
// exact allow list, and none but the ones marked exec-only or ask-only
// under default allow with the deny rules.
func TestBypassRound5(t *testing.T) {
	askDefault, allowDefault := round2Sets(t)
	f, err := os.Open("testdata/bypass5.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		var c round2Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("testdata/bypass5.jsonl line %d: %v", n, err)
		}
		if v := askDefault.Check(c.Command); v.Decision == Allow {
			t.Errorf("default ask: %q (%s) is allowed;%s", c.Command, c.Class, partsText(v))
		}
		if v := allowDefault.Check(c.Command); v.Decision == Allow && !c.ExecOnly && !c.AskOnly {
			t.Errorf("default allow: %q (%s) is allowed;%s", c.Command, c.Class, partsText(v))
		}
	}
	if n == 0 {
		t.Fatal("testdata/bypass5.jsonl holds no attempt")
	}
}

// TestRound5KnownStaysAllowed: an extended glob of literals and a
// descriptor variable without a subscript are still fully known.
func TestRound5KnownStaysAllowed(t *testing.T) {
	askDefault, _ := round2Sets(t)
	for _, in := range []string{
		"shopt -s extglob\nls @(a|b).go",
		"shopt -s extglob\ncase x in @(y|z)) echo y;; esac",
		"echo x {fd}>/dev/null",
		"echo x {a[1]}>/dev/null",
	} {
		if v := askDefault.Check(in); v.Decision != Allow {
			t.Errorf("%q = %v;%s", in, v.Decision, partsText(v))
		}
	}
}
