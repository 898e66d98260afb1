package shell

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

// Unit tests of the pieces; the lifecycle is tested through the library
// API in the module root (bash_test.go).

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
	res, err := r.Run(context.Background(), tool.BashInput{Command: "seq 1 5000"})
	if err != nil || !res.Stdout.Truncation.Truncated || res.Stdout.FullOutputPath != "" || res.Failed {
		t.Errorf("%+v", res.Stdout)
	}
}

func TestRunnerShellNotFound(t *testing.T) {
	cfg := defaultConfig(t)
	cfg.Shell = "no-such-shell-spillway"
	r := NewRunner(cfg)
	defer r.Close()
	_, err := r.Run(context.Background(), tool.BashInput{Command: "true"})
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
