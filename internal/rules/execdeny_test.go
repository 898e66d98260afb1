package rules

import (
	"slices"
	"testing"
)

func TestExecDenied(t *testing.T) {
	set := &Set{Default: Allow}
	for _, text := range []string{"rm *", "shred:*", "dd", "git push *", "rm* x", "/bin/rm *", "curl*"} {
		p, err := ParsePattern(text)
		if err != nil {
			t.Fatal(err)
		}
		set.Rules = append(set.Rules, Rule{Text: text, Pattern: p, Decision: Deny})
	}
	p, _ := ParsePattern("ls *")
	set.Rules = append(set.Rules, Rule{Text: "ls *", Pattern: p, Decision: Allow})
	names, byName, parserOnly := set.ExecDenied()
	if !slices.Equal(names, []string{"rm", "shred", "dd"}) || byName["rm"][0].Text != "rm *" {
		t.Errorf("names %v", names)
	}
	var texts []string
	for _, r := range parserOnly {
		texts = append(texts, r.Text)
	}
	if !slices.Equal(texts, []string{"git push *", "rm* x", "/bin/rm *", "curl*"}) {
		t.Errorf("parser-only %v", texts)
	}
}
