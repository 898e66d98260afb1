//go:build unix

package spillway_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spillway-dev/spillway"
)

// rulesToolset is a toolset whose rules deny rm, ask before touch and
// allow the rest.
func rulesToolset(t *testing.T, f *fakeAsker, r spillway.RulesPolicy) *spillway.Toolset {
	t.Helper()
	p := spillway.DefaultPolicy()
	p.Rules = r
	opts := spillway.Options{Cwd: t.TempDir(), Policy: &p}
	if f != nil {
		opts.Asker = f.ask
	}
	ts, err := spillway.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	return ts
}

var testRules = spillway.RulesPolicy{
	Default: "allow",
	Deny:    []string{"rm *"},
	Ask:     []string{"touch *"},
	Sources: map[string][]string{"deny": {"test.toml:3"}},
}

// A denied command does not run, none of its parts: the result is an
// error naming the part, the rule and where it is written.
func TestRulesDenyRunsNothing(t *testing.T) {
	ts := rulesToolset(t, nil, testRules)
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("x"), 0o644)
	marker := filepath.Join(dir, "marker")
	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "echo > " + marker + "; rm -f " + victim})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Text, "rm -f "+victim) || !strings.Contains(res.Text, "`rm *` (test.toml:3)") {
		t.Errorf("text:\n%s", res.Text)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a part before the denied one ran")
	}
	if _, err := os.Stat(victim); err != nil {
		t.Error("the denied part ran")
	}
	d := res.Details.Rules
	if d == nil || d.Decision != "deny" || len(d.Parts) != 2 || d.Parts[1].Rule != "rm *" || d.Parts[1].Source != "test.toml:3" || d.Parts[0].Decision != "allow" {
		t.Errorf("details.rules %+v", d)
	}
}

// An allowed command runs and its result carries the decision; without
// rules, results carry none.
func TestRulesAllowDetails(t *testing.T) {
	ts := rulesToolset(t, nil, testRules)
	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "echo hi"})
	if err != nil || res.IsError || !strings.Contains(res.Text, "hi") {
		t.Fatalf("%v %+v", err, res)
	}
	if d := res.Details.Rules; d == nil || d.Decision != "allow" || len(d.Parts) != 1 || d.Parts[0].Source != "" {
		t.Errorf("details.rules %+v", d)
	}
	plain := rulesToolset(t, nil, spillway.RulesPolicy{Default: "allow"})
	if plain.CheckCommand("rm x") != nil {
		t.Error("rules in force with none configured")
	}
	res, _ = plain.Bash(context.Background(), spillway.BashInput{Command: "true"})
	if res.Details.Rules != nil {
		t.Errorf("details.rules without rules: %+v", res.Details.Rules)
	}
	// A rule of the policy's own lists, with no source given, is named
	// by its field.
	if got := ts.RuleList()[1]; got.Source != "Policy.Rules.Ask[0]" || got.Rule != "touch *" || got.Decision != "ask" {
		t.Errorf("list %+v", ts.RuleList())
	}
}

// question is what an Asker is shown.
type question struct {
	command, cwd string
	parts        []spillway.RulePart
}

// fakeAsker answers every question with answer and records them.
type fakeAsker struct {
	mu     sync.Mutex
	answer string
	err    error
	asked  []question
}

func (f *fakeAsker) ask(_ context.Context, command, cwd string, parts []spillway.RulePart) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, question{command, cwd, parts})
	return f.answer, f.err
}

func (f *fakeAsker) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.asked)
}

// ask: the person is asked before anything runs, and each answer does
// what it says; "allow for this session" allows the same part again
// without asking.
func TestRulesAskAnswers(t *testing.T) {
	for _, answer := range []string{"allow once", "allow for this session", "deny"} {
		t.Run(answer, func(t *testing.T) {
			f := &fakeAsker{answer: answer}
			ts := rulesToolset(t, f, testRules)
			dir := t.TempDir()
			marker := filepath.Join(dir, "m")
			for i := range 2 {
				os.Remove(marker)
				res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "touch " + marker, Cwd: dir})
				if err != nil {
					t.Fatal(err)
				}
				_, statErr := os.Stat(marker)
				ran := statErr == nil
				if ran != (answer != "deny") {
					t.Errorf("call %d: ran %v; %s", i, ran, res.Text)
				}
				wantAsked := i + 1
				if answer == "allow for this session" {
					wantAsked = 1
				}
				if f.count() != wantAsked {
					t.Errorf("call %d: asked %d times, want %d", i, f.count(), wantAsked)
				}
				d := res.Details.Rules
				if answer == "deny" {
					if !res.IsError || !strings.Contains(res.Text, "the user denied the command") || d.Decision != "ask" {
						t.Errorf("denied: %s %+v", res.Text, d)
					}
				} else if d.Decision != "allow" || d.Parts[0].ApprovedForSession != (answer == "allow for this session") {
					t.Errorf("allowed: %+v", d)
				}
			}
			q := f.asked[0]
			if q.cwd != dir || !strings.HasPrefix(q.command, "touch ") || len(q.parts) != 1 || q.parts[0].Rule != "touch *" {
				t.Errorf("question %+v", q)
			}
		})
	}
}

// With no one to ask, or an asker that cannot ask, an ask is refused and
// the result says which rule held it and how to allow it.
func TestRulesAskWithoutAsker(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "m")
	for _, ts := range []*spillway.Toolset{
		rulesToolset(t, nil, testRules),
		rulesToolset(t, &fakeAsker{err: errors.New("this client cannot show a form")}, testRules),
	} {
		res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "touch " + marker})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(res.Text, "nothing ran") || !strings.Contains(res.Text, "the rule `touch *` (Policy.Rules.Ask[0]) asks first") {
			t.Errorf("text:\n%s", res.Text)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Error("the command ran")
		}
	}
	// The default ask: the config line that allows the part.
	ts := rulesToolset(t, nil, spillway.RulesPolicy{Default: "ask"})
	res, _ := ts.Bash(context.Background(), spillway.BashInput{Command: "echo hi"})
	if !res.IsError || !strings.Contains(res.Text, `[rules] allow = ["echo hi"]`) {
		t.Errorf("default ask:\n%s", res.Text)
	}
}

// A pattern that does not parse stops New with the rule's source.
func TestRulesBadPattern(t *testing.T) {
	p := spillway.DefaultPolicy()
	p.Rules.Deny = []string{""}
	_, err := spillway.New(spillway.Options{Cwd: t.TempDir(), Policy: &p})
	if err == nil || !strings.Contains(err.Error(), "rules.deny") {
		t.Fatalf("err = %v", err)
	}
}

// An interpreter started with a terminal or stdin is ask unless a rule
// allows it by name: what is typed into it later is not checked.
func TestRulesInteractiveInterpreter(t *testing.T) {
	ts := rulesToolset(t, nil, testRules)
	for _, in := range []spillway.BashInput{{Command: "bash", TTY: true}, {Command: "python3", Stdin: true}} {
		res, err := ts.Bash(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(res.Text, "what is typed into it later is not checked") || !strings.Contains(res.Text, `allow = ["`+in.Command+` *"]`) {
			t.Errorf("%s:\n%s", in.Command, res.Text)
		}
	}
	// Without a terminal or stdin it reads nothing and runs.
	if res, _ := ts.Bash(context.Background(), spillway.BashInput{Command: "bash"}); res.IsError {
		t.Errorf("bash with no stdin:\n%s", res.Text)
	}
	allowed := testRules
	allowed.Allow = []string{"python3 *"}
	ts = rulesToolset(t, nil, allowed)
	res, _ := ts.Bash(context.Background(), spillway.BashInput{Command: "python3 -c 'print(7)'", Stdin: true})
	if res.IsError || !strings.Contains(res.Text, "7") {
		t.Errorf("python3 allowed by name:\n%s", res.Text)
	}
	res, _ = ts.Bash(context.Background(), spillway.BashInput{Command: "python3", Stdin: true, RunInBackground: true})
	if res.IsError {
		t.Errorf("python3 allowed by name, interactive:\n%s", res.Text)
	}
}
