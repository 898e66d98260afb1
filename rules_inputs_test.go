//go:build unix

package spillway_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// The bash tool's env and cwd parameters are inputs the rules check: an
// env variable that chooses what runs is asked about, and nothing runs
// when no one can be asked.
func TestRulesCheckEnvParameter(t *testing.T) {
	ts := rulesToolset(t, nil, testRules)
	dir := t.TempDir()
	script := filepath.Join(dir, "e.sh")
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("x"), 0o644)
	os.WriteFile(script, []byte("rm -f "+victim+"\n"), 0o755)
	for _, env := range []map[string]string{
		{"BASH_ENV": script},
		{"PATH": dir + ":/usr/bin:/bin"},
		{"LD_PRELOAD": filepath.Join(dir, "x.so")},
	} {
		res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "ls", Env: env})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || res.Details.Rules == nil || res.Details.Rules.Decision != "ask" {
			t.Errorf("ls with env %v ran or was not asked: %s", env, res.Text)
		}
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("BASH_ENV ran: %v", err)
	}
	// A variable on neither list is fine.
	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "echo $CI", Env: map[string]string{"CI": "1"}})
	if err != nil || res.IsError || !strings.Contains(res.Text, "1") {
		t.Errorf("env CI=1: %v %s", err, res.Text)
	}
}

// A named session does not carry a change to a listed variable to its
// next call: the change is dropped and the result names it; other
// variables are carried. Every command gets LESSSECURE=1.
func TestRulesSessionDropsListedVariables(t *testing.T) {
	ts := rulesToolset(t, &fakeAsker{answer: "allow once"}, testRules)
	ctx := context.Background()
	res, err := ts.Bash(ctx, spillway.BashInput{Session: "s", Command: "export PATH=/nonexistent:$PATH FOO=kept"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "did not keep the change to PATH") {
		t.Errorf("the result does not name the dropped PATH:\n%s", res.Text)
	}
	res, err = ts.Bash(ctx, spillway.BashInput{Session: "s", Command: `echo "[$PATH] [$FOO] [$LESSSECURE]"`})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Text, "/nonexistent") || !strings.Contains(res.Text, "[kept]") || !strings.Contains(res.Text, "[1]") {
		t.Errorf("second call:\n%s", res.Text)
	}
}
