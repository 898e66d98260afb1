package shell

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/output"
)

// Unit tests of the pieces; the lifecycle is tested through the library
// API in the module root (bash_test.go).

func pipelineOf(t *testing.T, lim output.Limits, s string) output.Result {
	t.Helper()
	p := output.New(output.Options{Limits: lim})
	p.Write([]byte(s))
	p.Close()
	return p.Cut()
}

func TestPageText(t *testing.T) {
	lim := output.DefaultLimits
	empty := pipelineOf(t, lim, "")
	out := pipelineOf(t, lim, "a\nb")
	errs := pipelineOf(t, lim, "e\n")
	small := lim
	small.MaxLines = 2
	cut := pipelineOf(t, small, "1\n2\n3\n4\n5\n")
	bin := pipelineOf(t, lim, "\x00\x01\x02")
	cases := []struct {
		name string
		p    page
		want string
	}{
		{"both", page{stdout: out, stderr: &errs, exit: &exitStatus{}}, "stdout:\na\nb\n\nstderr:\ne\n\nexit code: 0"},
		{"stderr only", page{stdout: empty, stderr: &errs, exit: &exitStatus{code: 2}}, "stderr:\ne\n\nexit code: 2"},
		{"nothing", page{stdout: empty, stderr: &empty, empty: "(no output)", exit: &exitStatus{}}, "(no output)\n\nexit code: 0"},
		{"running", page{stdout: out, stderr: &empty, notes: []string{"[note]"}}, "stdout:\na\nb\n\n[note]"},
		{"merged", page{stdout: out, exit: &exitStatus{}, notes: []string{"[n1]", "[n2]"}}, "stdout:\na\nb\n\nexit code: 0\n[n1]\n[n2]"},
		{"cut", page{stdout: cut, stderr: &empty, exit: &exitStatus{}},
			"stdout:\n" + cut.Text() + cut.Notice("stdout") + "\n\nexit code: 0"},
		{"binary", page{stdout: bin, stderr: &empty, exit: &exitStatus{}}, "stdout:\n[binary output: 3 bytes]\n\nexit code: 0"},
	}
	for _, c := range cases {
		if got := c.p.text(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	if !strings.Contains(cut.Notice("stdout"), "[stdout: showing lines") {
		t.Errorf("cut notice %q", cut.Notice("stdout"))
	}
}

func TestExitStatus(t *testing.T) {
	cases := []struct {
		script string
		want   string
		signal string
	}{
		{"exit 0", "exit code: 0", ""},
		{"exit 7", "exit code: 7", ""},
		{"kill -TERM $$", "exit code: 143 (killed by SIGTERM)", "SIGTERM"},
		{"kill -KILL $$", "exit code: 137 (killed by SIGKILL)", "SIGKILL"},
		{"kill -SEGV $$", "exit code: 139 (killed by SIGSEGV)", "SIGSEGV"},
	}
	for _, c := range cases {
		cmd := exec.Command("bash", "-c", c.script)
		cmd.Run()
		s := statusOf(cmd.ProcessState)
		if s.String() != c.want || s.signal != c.signal {
			t.Errorf("%s: %q %q", c.script, s.String(), s.signal)
		}
	}
}

func TestRunnerWithoutSpillStore(t *testing.T) {
	r := NewRunner(defaultConfig(t))
	defer r.Close()
	res, err := r.Run(context.Background(), Command{Command: "seq 1 5000"})
	if err != nil || !res.Stdout.Truncation.Truncated || res.Stdout.FullOutputPath != "" || res.Failed {
		t.Errorf("%+v", res.Stdout)
	}
}

func TestRunnerShellNotFound(t *testing.T) {
	cfg := defaultConfig(t)
	cfg.Shell = "no-such-shell-spillway"
	r := NewRunner(cfg)
	defer r.Close()
	_, err := r.Run(context.Background(), Command{Command: "true"})
	if err == nil || !strings.Contains(err.Error(), `cannot run the shell "no-such-shell-spillway"`) {
		t.Errorf("%v", err)
	}
}

func TestEnvironOrder(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	env := environ(map[string]string{"S": "1", "PAGER": "less"}, map[string]string{"PAGER": "more"})
	last := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		last[k] = v
	}
	// The fixed additions beat the process and the session; the call
	// beats everything.
	if last["TERM"] != "dumb" || last["S"] != "1" || last["PAGER"] != "more" || last["GIT_EDITOR"] != "true" {
		t.Errorf("%v", last)
	}
}
