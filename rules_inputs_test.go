//go:build unix

package spillway_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// Keys typed into a job that runs what is typed into it are decided:
// ed started on a terminal gets !rm only with the person's approval, and
// commands written to bash reading a pipe are decided as commands.
func TestRulesWriteStdin(t *testing.T) {
	if _, err := exec.LookPath("ed"); err != nil {
		t.Skip("ed is not installed")
	}
	ctx := context.Background()
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("x"), 0o644)

	ts := rulesToolset(t, nil, testRules)
	r, err := ts.Bash(ctx, spillway.BashInput{Command: "ed", TTY: true, Timeout: 500 * time.Millisecond})
	if err != nil || !r.Details.Running {
		t.Fatalf("ed did not start: %v %s", err, r.Text)
	}
	defer ts.KillJob(ctx, spillway.KillJobInput{PID: r.Details.PID})
	w, err := ts.WriteStdin(ctx, spillway.WriteStdinInput{PID: r.Details.PID, Input: "!rm -f " + victim + "\n"})
	if err != nil {
		t.Fatal(err)
	}
	if !w.IsError || !strings.Contains(w.Text, "runs what is typed into it") {
		t.Errorf("typing into ed was not asked about:\n%s", w.Text)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("ed's shell escape ran: %v", err)
	}

	// bash reading a pipe: each write is decided as commands.
	f := &fakeAsker{answer: "allow once"}
	ts = rulesToolset(t, f, testRules)
	r, err = ts.Bash(ctx, spillway.BashInput{Command: "bash", Stdin: true, Timeout: 500 * time.Millisecond})
	if err != nil || !r.Details.Running {
		t.Fatalf("bash did not start: %v %s", err, r.Text)
	}
	defer ts.KillJob(ctx, spillway.KillJobInput{PID: r.Details.PID})
	w, err = ts.WriteStdin(ctx, spillway.WriteStdinInput{PID: r.Details.PID, Input: "rm -f " + victim + "\n"})
	if err != nil {
		t.Fatal(err)
	}
	if !w.IsError || !strings.Contains(w.Text, "denied") {
		t.Errorf("rm typed into bash was not denied:\n%s", w.Text)
	}
	marker := filepath.Join(dir, "marker")
	w, err = ts.WriteStdin(ctx, spillway.WriteStdinInput{PID: r.Details.PID, Input: "echo hi > " + marker + "\n"})
	if err != nil || w.IsError {
		t.Fatalf("echo typed into bash: %v %s", err, w.Text)
	}
	waitFor(t, func() bool { _, err := os.Stat(marker); return err == nil })
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("rm typed into bash ran: %v", err)
	}
}
