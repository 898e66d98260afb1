//go:build unix

package spillway_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/tool"
)

// An Edit entry that asks: each answer does what it says for the file
// tools as for bash. "allow for this session" allows the same file again
// without asking; "deny" and an asker that fails change nothing.
func TestFileRulesAskAnswers(t *testing.T) {
	cases := []struct {
		answer string
		err    error
		// changed: the edits took; asked: how many questions two edits
		// make; text: what a refused edit says.
		changed bool
		asked   int
		text    string
	}{
		{answer: "allow once", changed: true, asked: 2},
		{answer: "allow for this session", changed: true, asked: 1},
		{answer: "deny", asked: 2, text: "[the user denied the change: nothing was changed]\nThe file that needed approval: `Edit(FILE)`."},
		{err: errors.New("this client cannot show a form"), asked: 2,
			text: "[needs the user's approval, and this client cannot show a form: nothing ran]\n`Edit(FILE)`: the rule `Edit(notes.txt)` (Policy.Rules.Ask[0]) asks first; to run it without asking, the user removes or narrows that rule"},
	}
	for _, c := range cases {
		name := c.answer
		if c.err != nil {
			name = "asker error"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			f := &fakeAsker{answer: c.answer, err: c.err}
			pol := spillway.DefaultPolicy()
			pol.Rules.Ask = []string{"Edit(notes.txt)"}
			ts := bashToolset(t, spillway.Options{Cwd: t.TempDir(), Policy: &pol, Asker: f.ask})
			dir := ts.Cwd()
			file := filepath.Join(dir, "notes.txt")
			writeFile(t, file, "a\n")
			for i, e := range []tool.EditInput{{Path: "notes.txt", OldString: "a", NewString: "b"}, {Path: "notes.txt", OldString: "b", NewString: "c"}} {
				res, err := ts.Edit(ctx, e)
				if err != nil {
					t.Fatal(err)
				}
				if c.changed == res.IsError {
					t.Errorf("edit %d: refused %v, want %v:\n%s", i, res.IsError, !c.changed, res.Text)
				}
				if want := strings.ReplaceAll(c.text, "FILE", file); !c.changed && res.Text != want {
					t.Errorf("edit %d:\n%s\nwant\n%s", i, res.Text, want)
				}
			}
			want := "a\n"
			if c.changed {
				want = "c\n"
			}
			if b, _ := os.ReadFile(file); string(b) != want {
				t.Errorf("the file holds %q, want %q", b, want)
			}
			if f.count() != c.asked {
				t.Errorf("asked %d times, want %d", f.count(), c.asked)
			}
			q := f.asked[0]
			if q.command != "edit Edit("+file+")" || q.cwd != dir || len(q.parts) != 1 || q.parts[0].Rule != "Edit(notes.txt)" || q.parts[0].Decision != "ask" {
				t.Errorf("question %+v", q)
			}
		})
	}
}

// A file that a Read ask entry and a Read deny entry both hold is hidden
// by the deny entry, whichever comes first in the rules.
func TestReadRulesDenyNamedBeforeAsk(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "notes.md"), "needle\n")
	settings := filepath.Join(dir, ".claude", "settings.json")
	writeFile(t, settings, `{"permissions":{"deny":["Read(notes.md)"]}}`)
	pol := spillway.DefaultPolicy()
	pol.Rules.Ask = []string{"Read(notes.md)"}
	pol.Rules.Import = []string{"claude-code"}
	pol.Rules.ManagedDir = "-"
	ts := bashToolset(t, spillway.Options{Cwd: dir, Policy: &pol})
	g, err := ts.Grep(context.Background(), spillway.GrepInput{Pattern: "needle", OutputMode: "files_with_matches"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Details.Hidden != 1 || !strings.Contains(g.Text, "`Read(notes.md)` ("+settings+":1)") || strings.Contains(g.Text, "Policy.Rules.Ask") {
		t.Errorf("grep: hidden %d\n%s", g.Details.Hidden, g.Text)
	}
}

// stdinNotice is an asker's error that is the whole result: the question
// is still open elsewhere.
type stdinNotice struct{}

func (stdinNotice) Error() string  { return "open elsewhere" }
func (stdinNotice) Notice() string { return "[asked in the console: wait for the answer]" }

// What write_stdin sends to a job that runs what is typed into it is
// asked about while rules are in force, and each answer does what it
// says; a job that does not run its input, a job that is not there, and
// input to a shell reading a pipe that holds no command are not asked
// about.
func TestRulesWriteStdinAnswers(t *testing.T) {
	pol := spillway.RulesPolicy{Default: "allow", Allow: []string{"bash", "bash *"}, Ask: []string{"touch *"}, Deny: []string{"rm *"}}
	tty := spillway.BashInput{Command: "bash", TTY: true, Timeout: 200 * time.Millisecond}
	pipe := spillway.BashInput{Command: "bash", Stdin: true, Timeout: 200 * time.Millisecond}
	echo := spillway.WriteStdinInput{Input: "echo hi\n"}
	denied := "[the user denied the input: nothing was sent]"
	cases := []struct {
		name   string
		answer string
		err    error
		job    spillway.BashInput
		writes []spillway.WriteStdinInput
		// refused: each write's refusal text ("" not refused by the
		// rules: sent, or failed on its own); asked: the
		// questions the writes make; question: the first one's words.
		refused  []string
		asked    int
		question string
	}{
		{name: "allow once", answer: "allow once", job: tty, writes: []spillway.WriteStdinInput{echo, echo}, refused: []string{"", ""}, asked: 2,
			question: "echo hi\n (typed into `bash`)"},
		{name: "allow for this session", answer: "allow for this session", job: tty, writes: []spillway.WriteStdinInput{echo, echo}, refused: []string{"", ""}, asked: 1},
		{name: "deny", answer: "deny", job: tty, writes: []spillway.WriteStdinInput{echo}, refused: []string{denied}, asked: 1},
		{name: "trust the project, twice", answer: "trust this project's rules", job: tty, writes: []spillway.WriteStdinInput{echo},
			refused: []string{"[trusting the project's rules did not settle the input: nothing was sent]"}, asked: 2},
		{name: "an asker error", err: errors.New("this client cannot show a form"), job: tty, writes: []spillway.WriteStdinInput{echo},
			refused: []string{"[needs the user's approval, and this client cannot show a form: nothing ran]\n`echo hi\n`: job PID runs bash, which runs what is typed into it: allowing a program by name allows starting it, not what is typed into it; \"allow for this session\" allows typing into this job; no rule can allow it: write the command with its programs spelled out, or the user runs it"},
			asked:   1},
		{name: "an asker notice", err: stdinNotice{}, job: tty, writes: []spillway.WriteStdinInput{echo}, refused: []string{"[asked in the console: wait for the answer]"}, asked: 1},
		{name: "keys and the job's arguments", answer: "deny", job: spillway.BashInput{Command: "bash", Args: []string{"--norc"}, TTY: true, Timeout: 200 * time.Millisecond},
			writes: []spillway.WriteStdinInput{{Input: "echo hi", Keys: []string{"Enter"}}}, refused: []string{denied}, asked: 1,
			question: "echo hi<Enter> (typed into `'bash' '--norc'`)"},
		{name: "a shell reading a pipe: a part asked", answer: "deny", job: pipe, writes: []spillway.WriteStdinInput{{Input: "touch x\n"}}, refused: []string{denied}, asked: 1,
			question: "touch x\n (typed into `bash`)"},
		{name: "a shell reading a pipe: a signal", answer: "deny", job: pipe, writes: []spillway.WriteStdinInput{{Keys: []string{"C-c"}}}, refused: []string{""}},
		{name: "a shell reading a pipe: a key the write refuses", answer: "deny", job: pipe, writes: []spillway.WriteStdinInput{{Keys: []string{"C-z"}}},
			refused: []string{"Ctrl-Z would stop a job that reads a pipe"}},
		{name: "a job that does not run its input", answer: "deny", job: spillway.BashInput{Command: "cat", Stdin: true, Timeout: 200 * time.Millisecond},
			writes: []spillway.WriteStdinInput{{Input: "rm -f x\n"}}, refused: []string{""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			f := &fakeAsker{answer: c.answer, err: c.err}
			ts := rulesToolset(t, f, pol)
			r, err := ts.Bash(ctx, c.job)
			if err != nil || !r.Details.Running {
				t.Fatalf("the job did not start: %v %s", err, r.Text)
			}
			defer ts.KillJob(ctx, spillway.KillJobInput{PID: r.Details.PID})
			if f.count() != 0 {
				t.Fatalf("starting the job asked: %+v", f.asked)
			}
			for i, in := range c.writes {
				in.PID, in.Timeout = r.Details.PID, 100*time.Millisecond
				w, err := ts.WriteStdin(ctx, in)
				text := ""
				switch {
				case err != nil:
					text = err.Error()
				case w.IsError:
					text = w.Text
				}
				want := strings.ReplaceAll(c.refused[i], "PID", fmt.Sprint(r.Details.PID))
				if want == "" && strings.Contains(text, "nothing was sent") || !strings.Contains(text, want) {
					t.Errorf("write %d: %q\nwant %q", i, text, want)
				}
			}
			if f.count() != c.asked {
				t.Errorf("asked %d times, want %d: %+v", f.count(), c.asked, f.asked)
			}
			if c.question != "" && (f.count() == 0 || f.asked[0].command != c.question) {
				t.Errorf("questions %+v, want the first %q", f.asked, c.question)
			}
		})
	}
}

// A write to a job that is not there is the write's own error, with no
// question.
func TestRulesWriteStdinNoJob(t *testing.T) {
	f := &fakeAsker{answer: "deny"}
	ts := rulesToolset(t, f, testRules)
	w, err := ts.WriteStdin(context.Background(), spillway.WriteStdinInput{PID: 999999, Input: "echo hi\n"})
	if err == nil && !w.IsError {
		t.Errorf("a write to no job was sent: %s", w.Text)
	}
	if err == nil && strings.Contains(w.Text, "runs what is typed into it") || f.count() != 0 {
		t.Errorf("a write to no job was decided: %v %+v %+v", err, w, f.asked)
	}
}
