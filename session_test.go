package spillway_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// Named sessions: cd and export hold from call to call within a session,
// and nowhere else.
func TestBashSessionPersists(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	other := filepath.Join(dir, "other")
	os.Mkdir(sub, 0o755)
	os.Mkdir(other, 0o755)
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	run := func(session, command string) spillway.Result[spillway.BashDetails] {
		t.Helper()
		return bashRun(t, ts, spillway.BashInput{Command: command, Session: session})
	}
	probe := `pwd; echo "FOO=$FOO"`

	r := run("a", "cd sub && export FOO=bar && echo done")
	if r.Content != "done\n" || bashExit(r) != 0 {
		t.Fatalf("first call: stdout %q (the state must not reach the output), exit %d", r.Content, bashExit(r))
	}
	if r := run("a", probe); r.Content != sub+"\nFOO=bar\n" {
		t.Errorf("same session: %q, want cwd %s and FOO=bar", r.Content, sub)
	}
	if r := run("b", probe); r.Content != dir+"\nFOO=\n" {
		t.Errorf("another session: %q, want the start directory and no FOO", r.Content)
	}
	if r := run("", probe); r.Content != dir+"\nFOO=\n" {
		t.Errorf("no session: %q, want the start directory and no FOO", r.Content)
	}

	// exit N keeps its code and still saves the state.
	r = run("a", "export N=1; cd ..; exit 7")
	if bashExit(r) != 7 {
		t.Errorf("exit 7 in a session: exit code %d", bashExit(r))
	}
	if r := run("a", `pwd; echo "N=$N FOO=$FOO"`); r.Content != dir+"\nN=1 FOO=bar\n" {
		t.Errorf("after exit 7: %q", r.Content)
	}

	// Per-call cwd and env win for that call only.
	r = bashRun(t, ts, spillway.BashInput{Command: probe, Session: "a", Cwd: other, Env: map[string]string{"FOO": "call"}})
	if r.Content != other+"\nFOO=call\n" {
		t.Errorf("per-call cwd and env: %q", r.Content)
	}
	if r := run("a", probe); r.Content != dir+"\nFOO=bar\n" {
		t.Errorf("after a per-call override: %q, want the session's own state back", r.Content)
	}

	// unset holds too; set -a does not leak the capture's own variables;
	// a variable changed in a subshell does not.
	run("a", "unset FOO; set -a; X=1; (export Y=2)")
	r = run("a", `echo "FOO=${FOO-unset} X=$X Y=$Y"; env | grep -c __spillway_ || true`)
	if r.Content != "FOO=unset X=1 Y=\n0\n" {
		t.Errorf("unset / set -a / subshell: %q", r.Content)
	}

	// A syntax error, exec and a killed shell leave the session as it was.
	run("a", "cd sub; export K=1")
	for _, cmd := range []string{"cd /; export K=2; if", "cd /; export K=3; exec true", "cd /; export K=4; kill -KILL $$"} {
		run("a", cmd)
		if r := run("a", `pwd; echo "K=$K"`); r.Content != sub+"\nK=1\n" {
			t.Errorf("after %q: %q, want the state before it", cmd, r.Content)
		}
	}

	infos := ts.Sessions()
	if len(infos) != 2 || infos[0].Name != "a" || infos[1].Name != "b" {
		t.Fatalf("sessions: %+v", infos)
	}
	if infos[0].Cwd != sub || infos[0].Env["K"] != "1" || infos[0].Env["X"] != "1" || infos[1].Cwd != dir {
		t.Errorf("session a: %+v", infos[0])
	}
	// Every field is filled: the removed variables, sorted, the calls
	// and the time of the last.
	if !slices.Equal(infos[0].Unset, []string{"FOO"}) || infos[0].Calls < 10 || infos[0].LastUsed.IsZero() || infos[0].LastUsed.Before(infos[1].LastUsed) {
		t.Errorf("session a: unset %v, calls %d, last used %v (b's %v)", infos[0].Unset, infos[0].Calls, infos[0].LastUsed, infos[1].LastUsed)
	}
}

func TestBashSessionErrors(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	for _, in := range []spillway.BashInput{
		{Command: "true", Session: "bad name"},
		{Command: "true", Session: strings.Repeat("x", 65)},
	} {
		if r, err := ts.Bash(context.Background(), in); err == nil {
			t.Errorf("%+v: want a call error, got %q", in, r.Text)
		}
	}
	// A session whose directory was removed says so and names the way out.
	dir := t.TempDir()
	run := func(in spillway.BashInput) spillway.Result[spillway.BashDetails] { return bashRun(t, ts, in) }
	run(spillway.BashInput{Command: "cd " + dir, Session: "gone"})
	os.Remove(dir)
	_, err := ts.Bash(context.Background(), spillway.BashInput{Command: "pwd", Session: "gone"})
	if err == nil || !strings.Contains(err.Error(), `session "gone"`) {
		t.Errorf("removed directory: %v", err)
	}
	// With cwd given the call runs; its cd moves the session.
	to := t.TempDir()
	if r := run(spillway.BashInput{Command: "cd " + to, Session: "gone", Cwd: "/"}); r.IsError {
		t.Errorf("cwd given: %q", r.Text)
	}
	if r := run(spillway.BashInput{Command: "pwd", Session: "gone"}); r.Content != to+"\n" {
		t.Errorf("after cd: %q", r.Text)
	}
}

// args run a program without a shell: nothing in them is expanded.
func TestBashArgsLiteral(t *testing.T) {
	ts := bashToolset(t, spillway.Options{Env: map[string]string{"HOME_X": "expanded"}})
	args := []string{`%s|`, "a b", "'single'", `"double"`, "$HOME_X", "`id`", "$(id)", "*", "a\\b", ""}
	r := bashRun(t, ts, spillway.BashInput{Command: "printf", Args: args})
	want := strings.Join(args[1:], "|") + "|"
	if r.Content != want || bashExit(r) != 0 {
		t.Errorf("printf args: %q (exit %d), want %q", r.Content, bashExit(r), want)
	}
	// The pipeline, limits and exit code apply as to a shell command.
	r = bashRun(t, ts, spillway.BashInput{Command: "seq", Args: []string{"1", "100"}, MaxLines: 10})
	if !r.Details.Stdout.Truncation.Truncated || r.Details.Stdout.FullOutputPath == "" {
		t.Errorf("seq args with max_lines: %+v", r.Details.Stdout)
	}
	if r := bashRun(t, ts, spillway.BashInput{Command: "false", Args: []string{"x"}}); bashExit(r) != 1 || !r.IsError {
		t.Errorf("false: %q", r.Text)
	}
	// A program that does not exist is a call error, not a shell's 127.
	if _, err := ts.Bash(context.Background(), spillway.BashInput{Command: "no-such-program-spillway", Args: []string{"x"}}); err == nil || !strings.Contains(err.Error(), "PATH") {
		t.Errorf("missing program: %v", err)
	}
	// In the background, as a job.
	r = bashRun(t, ts, spillway.BashInput{Command: "sleep", Args: []string{"30"}, RunInBackground: true})
	if r.Details.PID == 0 || !r.Details.Running {
		t.Fatalf("background args: %q", r.Text)
	}
	if k := bashKill(t, ts, r.Details.PID); k.Details.Running {
		t.Errorf("kill: %q", k.Text)
	}
	// A session's directory and environment reach an args program.
	dir := t.TempDir()
	bashRun(t, ts, spillway.BashInput{Command: "cd " + dir + " && export SV=kept", Session: "s"})
	r = bashRun(t, ts, spillway.BashInput{Command: "sh", Args: []string{"-c", `pwd; echo "$SV"`}, Session: "s"})
	if r.Content != dir+"\nkept\n" {
		t.Errorf("args in a session: %q", r.Content)
	}
}

// The listing of a session's exports names the agent's variables only:
// spillway's own marks and bash's OLDPWD bookkeeping are not the model's
// business, though cd - still works across calls.
func TestBashSessionListsOnlyAgentVariables(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	bashRun(t, ts, spillway.BashInput{Command: "export FOO=1; cd sub", Session: "s"})
	if r := bashRun(t, ts, spillway.BashInput{Command: "cd - >/dev/null; pwd", Session: "s"}); r.Content != dir+"\n" {
		t.Errorf("cd - in the next call: %q, want %s", r.Content, dir)
	}
	infos := ts.Sessions()
	if len(infos) != 1 {
		t.Fatalf("sessions: %+v", infos)
	}
	var names []string
	for k := range infos[0].Env {
		names = append(names, k)
	}
	if len(names) != 1 || names[0] != "FOO" {
		t.Errorf("exports listed: %v, want only FOO", names)
	}
}
