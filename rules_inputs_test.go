//go:build unix

package spillway_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// Text written to bash reading a pipe is decided as whole commands: a
// write that is not one (no newline yet, a line continued with a
// backslash, an open quote or here-document) is refused and not sent,
// since bash would join it to the next write, which is decided alone.
// The person's "allow for this session" for a part typed into such a
// shell allows that part again, not everything typed into the job.
func TestRulesWriteStdinWholeCommands(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		answer string
		writes []string
		// refused are the indexes of the writes that must be refused.
		refused []int
	}{
		{"a name split across writes", "", []string{"r", "m -f VICTIM\n"}, []int{0}},
		{"a line continued with a backslash", "", []string{"r\\\n", "m -f VICTIM\n"}, []int{0}},
		{"an open quote", "", []string{"echo 'a\n", "'; rm -f VICTIM; echo '\n"}, []int{0, 1}},
		{"an open here-document", "", []string{"cat <<EOF\n", "EOF\nr\\\n", "m -f VICTIM\n"}, []int{0, 1}},
		{"a list left open", "", []string{"true &&\n", "r\\\n"}, []int{0, 1}},
		{"allow for this session allows the part, not the job", "allow for this session", []string{"touch MARK2\n", "rm -f VICTIM\n"}, []int{1}},
	}
	// bash started on a pipe is asked about unless a rule allows it.
	pol := testRules
	pol.Allow = []string{"bash"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(dir, "victim")
			os.WriteFile(victim, []byte("x"), 0o644)
			var f *fakeAsker
			if c.answer != "" {
				f = &fakeAsker{answer: c.answer}
			}
			ts := rulesToolset(t, f, pol)
			r, err := ts.Bash(ctx, spillway.BashInput{Command: "bash", Stdin: true, Timeout: 200 * time.Millisecond})
			if err != nil || !r.Details.Running {
				t.Fatalf("bash did not start: %v %s", err, r.Text)
			}
			defer ts.KillJob(ctx, spillway.KillJobInput{PID: r.Details.PID})
			for i, in := range c.writes {
				in = strings.ReplaceAll(in, "VICTIM", victim)
				in = strings.ReplaceAll(in, "MARK2", filepath.Join(dir, "mark2"))
				w, err := ts.WriteStdin(ctx, spillway.WriteStdinInput{PID: r.Details.PID, Input: in, Timeout: 100 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				if want := slices.Contains(c.refused, i); w.IsError != want {
					t.Errorf("write %d %q: refused %v, want %v:\n%s", i, in, w.IsError, want, w.Text)
				}
			}
			// A marker written after the rest is run after it: once it
			// exists, bash has read everything sent before.
			marker := filepath.Join(dir, "marker")
			if w, err := ts.WriteStdin(ctx, spillway.WriteStdinInput{PID: r.Details.PID, Input: "\necho done > " + marker + "\n", Timeout: 100 * time.Millisecond}); err != nil || w.IsError {
				t.Fatalf("the marker: %v %s", err, w.Text)
			}
			waitFor(t, func() bool { _, err := os.Stat(marker); return err == nil })
			if _, err := os.Stat(victim); err != nil {
				t.Errorf("the victim was removed: %v", err)
			}
		})
	}
}

// The refusal of a write that is not a whole command says what to do.
func TestRulesWriteStdinPartialMessage(t *testing.T) {
	ctx := context.Background()
	pol := testRules
	pol.Allow = []string{"bash"}
	ts := rulesToolset(t, nil, pol)
	r, err := ts.Bash(ctx, spillway.BashInput{Command: "bash", Stdin: true, Timeout: 200 * time.Millisecond})
	if err != nil || !r.Details.Running {
		t.Fatalf("bash did not start: %v %s", err, r.Text)
	}
	defer ts.KillJob(ctx, spillway.KillJobInput{PID: r.Details.PID})
	w, err := ts.WriteStdin(ctx, spillway.WriteStdinInput{PID: r.Details.PID, Input: "echo hi", Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !w.IsError || !strings.Contains(w.Text, "nothing was sent") || !strings.Contains(w.Text, "whole commands") {
		t.Errorf("a write with no newline:\n%s", w.Text)
	}
	// With the end of input, bash runs what it holds: the text is whole.
	w, err = ts.WriteStdin(ctx, spillway.WriteStdinInput{PID: r.Details.PID, Input: "echo hi", CloseStdin: true, Timeout: 100 * time.Millisecond})
	if err != nil || w.IsError {
		t.Errorf("echo hi with close_stdin: %v\n%s", err, w.Text)
	}
}

// bash's read -e on a terminal reads the line with readline, whose
// shell-expand-line (ESC C-e) runs the command substitutions typed: with
// read allowed by a rule, every write to such a job is still asked, and
// refused when no one can be asked, so $(touch marker) never runs.
func TestRulesWriteStdinReadline(t *testing.T) {
	ctx := context.Background()
	pol := spillway.RulesPolicy{Default: "ask", Allow: []string{"read *", "echo *"}}
	for _, command := range []string{"read -e x", "read -rep '> ' x", "builtin read -e x"} {
		t.Run(command, func(t *testing.T) {
			dir := t.TempDir()
			marker := filepath.Join(dir, "marker")
			ts := rulesToolset(t, nil, pol)
			r, err := ts.Bash(ctx, spillway.BashInput{Command: command + "; echo got", TTY: true, Timeout: 100 * time.Millisecond})
			if err != nil || !r.Details.Running {
				t.Fatalf("%s did not start: %v %s", command, err, r.Text)
			}
			defer ts.KillJob(ctx, spillway.KillJobInput{PID: r.Details.PID})
			for _, in := range []string{"$(touch " + marker + ")\x1b\x05", "\n"} {
				w, err := ts.WriteStdin(ctx, spillway.WriteStdinInput{PID: r.Details.PID, Input: in, Timeout: 100 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				if !w.IsError || !strings.Contains(w.Text, "runs what is typed into it") {
					t.Errorf("write %q was not asked about:\n%s", in, w.Text)
				}
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the command substitution typed into read -e ran")
			}
		})
	}
}
