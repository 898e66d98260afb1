package shell

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
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
		{"both", page{stdout: out, stderr: &errs, status: "exit code: 0"}, "stdout:\na\nb\n\nstderr:\ne\n\nexit code: 0"},
		{"stderr only", page{stdout: empty, stderr: &errs, status: "exit code: 2"}, "stderr:\ne\n\nexit code: 2"},
		{"nothing", page{stdout: empty, stderr: &empty, empty: "(no output)", status: "exit code: 0"}, "(no output)\n\nexit code: 0"},
		{"running", page{stdout: out, stderr: &empty, notes: []string{"[note]"}}, "stdout:\na\nb\n\n[note]"},
		{"merged", page{stdout: out, status: "exit code: 0", notes: []string{"[n1]", "[n2]"}}, "stdout:\na\nb\n\nexit code: 0\n[n1]\n[n2]"},
		{"cut", page{stdout: cut, stderr: &empty, status: "exit code: 0"},
			"stdout:\n" + cut.Text() + cut.Notice("stdout") + "\n\nexit code: 0"},
		{"binary", page{stdout: bin, stderr: &empty, status: "exit code: 0"}, "stdout:\n[binary output: 3 bytes]\n\nexit code: 0"},
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

// readStat must find the fields after a command name with spaces and
// parentheses.
func TestReadStatOddName(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip(err)
	}
	b, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(t.TempDir(), "a) (b c")
	if err := os.WriteFile(odd, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(odd, "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	st, ok := readStat(cmd.Process.Pid)
	if !ok || st.ppid != os.Getpid() || st.pgrp != cmd.Process.Pid || st.state == 'Z' {
		t.Errorf("%+v %v", st, ok)
	}
}

// A group whose only member is a zombie is not live, though kill(-pgid, 0)
// still succeeds.
func TestGroupLiveIgnoresZombies(t *testing.T) {
	cmd := exec.Command("true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	defer cmd.Wait()
	for i := 0; ; i++ {
		if st, ok := readStat(pid); ok && st.state == 'Z' {
			break
		}
		if i > 1000 {
			t.Fatal("no zombie")
		}
		time.Sleep(time.Millisecond)
	}
	if err := syscall.Kill(-pid, 0); err != nil {
		t.Fatalf("kill(-pgid, 0) on a zombie group: %v", err)
	}
	if groupLive(pid) {
		t.Error("a zombie-only group is live")
	}
	cmd.Wait()
	if groupLive(pid) {
		t.Error("an empty group is live")
	}
}

// pipeHolders finds a process outside our group that holds our pipe.
func TestPipeHolders(t *testing.T) {
	s, w, err := newStream("stdout", output.New(output.Options{Limits: output.DefaultLimits}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.r.Close()
	cmd := exec.Command("sleep", "30")
	cmd.Stdout = w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer cmd.Wait()
	holders := pipeHolders([]uint64{s.ino})
	cmd.Process.Kill()
	if s.ino == 0 || !slices.Equal(holders, []int{cmd.Process.Pid}) {
		t.Errorf("ino %d holders %v, want [%d]", s.ino, holders, cmd.Process.Pid)
	}
	if h := pipeHolders([]uint64{s.ino + 1<<40}); len(h) != 0 {
		t.Errorf("holders of an unknown pipe: %v", h)
	}
}

func TestRunnerWithoutSpillStore(t *testing.T) {
	r := NewRunner(Config{Cwd: t.TempDir(), Policy: policy.Default()})
	defer r.Close()
	res, err := r.Run(context.Background(), Input{Command: "seq 1 5000"})
	if err != nil || !res.Details.Stdout.Truncation.Truncated || res.Details.Stdout.FullOutputPath != "" || res.IsError {
		t.Errorf("%+v", res.Details.Stdout)
	}
}

func TestRunnerShellNotFound(t *testing.T) {
	p := policy.Default()
	p.Shell = "no-such-shell-spillway"
	r := NewRunner(Config{Cwd: t.TempDir(), Policy: p})
	defer r.Close()
	_, err := r.Run(context.Background(), Input{Command: "true"})
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
