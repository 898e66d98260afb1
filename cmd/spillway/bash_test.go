package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The bash command through the real binary: what a single process can
// show (a one-shot command is a session of its own, so its jobs
// end with it), exit statuses, --json, and the parent-death signal.

// bashCLI is the built binary and the environment it runs in.
type bashCLI struct {
	bin string
	env []string
	tmp string
}

func newBashCLI(t *testing.T) bashCLI {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "spillway")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	return bashCLI{bin: bin, env: append(os.Environ(), "TMPDIR="+tmp), tmp: tmp}
}

// cliRun is one finished run of the binary.
type cliRun struct {
	stdout, stderr string
	status         int
	took           time.Duration
}

func (c bashCLI) run(t *testing.T, args ...string) cliRun {
	t.Helper()
	return c.runBounded(t, "", args...)
}

// jsonResult is what --json prints.
type jsonResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"is_error"`
	Details struct {
		ExitCode     *int   `json:"exit_code"`
		Signal       string `json:"signal"`
		TimedOut     bool   `json:"timed_out"`
		Backgrounded bool   `json:"backgrounded"`
		Running      bool   `json:"running"`
		PID          int    `json:"pid"`
		Stdout       struct {
			FullOutputPath string `json:"full_output_path"`
		} `json:"stdout"`
	} `json:"details"`
}

func (c bashCLI) runJSON(t *testing.T, args ...string) (jsonResult, cliRun) {
	t.Helper()
	r := c.run(t, append([]string{"--json"}, args...)...)
	var j jsonResult
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil {
		t.Fatalf("%v: not JSON (%v): %q", args, err, r.stdout)
	}
	return j, r
}

// groupLeft lists the live members of process group pgid.
func groupLeft(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var live []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, pg, ok := procState(pid); ok && pg == pgid && st != 'Z' {
			live = append(live, pid)
		}
	}
	return live
}

func procState(pid int) (state byte, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	f := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:])
	pgrp, _ = strconv.Atoi(string(f[2]))
	return f[0][0], pgrp, true
}

func alive(pid int) bool {
	st, _, ok := procState(pid)
	return ok && st != 'Z'
}

func TestBashCLI(t *testing.T) {
	cli := newBashCLI(t)

	t.Run("text and exit status", func(t *testing.T) {
		r := cli.run(t, "bash", "echo out; echo err >&2; exit 3")
		if r.stdout != "stdout:\nout\n\nstderr:\nerr\n\nexit code: 3\n" || r.status != 3 {
			t.Errorf("status %d, stdout %q", r.status, r.stdout)
		}
		r = cli.run(t, "bash", "true")
		if r.stdout != "(no output)\n\nexit code: 0\n" || r.status != 0 || r.stderr != "" {
			t.Errorf("status %d, stdout %q stderr %q", r.status, r.stdout, r.stderr)
		}
	})

	t.Run("bad usage", func(t *testing.T) {
		for _, args := range [][]string{
			{"bash"},
			{"bash", ""},
			{"bash", "--check-pid", "5", "true"},
			{"bash", "--check-pid", "5", "--kill-pid", "5"},
			{"bash", "--env", "NOEQUALS", "true"},
			{"bash", "--timeout", "soon", "true"},
			{"bash", "one", "two"},
		} {
			if r := cli.run(t, args...); r.status != 2 || r.stderr == "" {
				t.Errorf("%q: status %d stderr %q", args, r.status, r.stderr)
			}
		}
		// A job of an earlier call cannot be reached from a one-shot
		// command: the CLI refuses check_pid with one line saying so.
		if r := cli.run(t, "bash", "--check-pid", "12345"); r.status != 2 || !strings.Contains(r.stderr, "--check-pid works across the calls of one session") {
			t.Errorf("check_pid: status %d %q %q", r.status, r.stdout, r.stderr)
		}
	})

	t.Run("flags", func(t *testing.T) {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "sub"), 0o755)
		r := cli.run(t, "bash", "--cwd", filepath.Join(dir, "sub"), "--env", "A=1", "--env", "B=x=y",
			`echo "$A $B $TERM"; pwd`)
		if want := "stdout:\n1 x=y dumb\n" + filepath.Join(dir, "sub") + "\n\nexit code: 0\n"; r.stdout != want {
			t.Errorf("got %q want %q", r.stdout, want)
		}
		j, _ := cli.runJSON(t, "bash", "--max-lines", "10", "seq 1 1000")
		p := j.Details.Stdout.FullOutputPath
		if !strings.Contains(j.Text, "showing lines") || p == "" || !strings.HasPrefix(p, cli.tmp) {
			t.Fatalf("max-lines: %q", j.Text)
		}
		// The CLI keeps its spill files for a person to open.
		if b, err := os.ReadFile(p); err != nil || strings.Count(string(b), "\n") != 1000 {
			t.Errorf("spill file %s after exit: %v", p, err)
		}
		j, _ = cli.runJSON(t, "bash", "--full-output", "seq 1 3000")
		if strings.Contains(j.Text, "showing") || !strings.Contains(j.Text, "\n3000\n") {
			t.Errorf("full-output: %q", j.Text[len(j.Text)-100:])
		}
		j, _ = cli.runJSON(t, "bash", "--max-bytes", "100", "seq 1 1000")
		if !strings.Contains(j.Text, "(100B limit)") {
			t.Errorf("max-bytes: %q", j.Text)
		}
	})

	t.Run("lingering children", func(t *testing.T) {
		j, r := cli.runJSON(t, "bash", "sleep 30 & echo started")
		t.Logf("sleep 30 & echo started: %v", r.took)
		if r.status != 0 || !strings.HasPrefix(j.Text, "stdout:\nstarted\n\nexit code: 0\n") || !j.Details.Running || j.Details.PID == 0 {
			t.Errorf("status %d %+v %q", r.status, j.Details, j.Text)
		}
		if !strings.Contains(r.stderr, "being stopped") {
			t.Errorf("stderr %q", r.stderr)
		}
		if live := groupLeft(j.Details.PID); len(live) > 0 {
			t.Errorf("the sleeper outlived the CLI: %v", live)
		}

		j, r = cli.runJSON(t, "bash", "setsid sleep 30 & echo $!")
		t.Logf("setsid sleep 30 & echo $!: %v", r.took)
		sleeper, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.SplitN(j.Text, "\n\n", 2)[0], "stdout:\n")))
		if r.status != 0 || !j.Details.Running || sleeper == 0 {
			t.Fatalf("status %d %+v %q", r.status, j.Details, j.Text)
		}
		if alive(sleeper) {
			t.Errorf("the setsid sleeper %d outlived the CLI", sleeper)
		}
	})

	t.Run("timeout backgrounds", func(t *testing.T) {
		j, r := cli.runJSON(t, "bash", "--timeout", "1000", "echo first; sleep 3; echo second")
		t.Logf("returned after %v", r.took)
		d := j.Details
		// is_error says what the status says: spillway stopped it.
		if r.status != 124 || !j.IsError || !d.TimedOut || !d.Backgrounded || !d.Running || d.ExitCode != nil || strings.Contains(j.Text, "second") {
			t.Errorf("status %d %+v %q", r.status, d, j.Text)
		}
		if !strings.HasPrefix(j.Text, "stdout:\nfirst\n") {
			t.Logf("first not yet shown (a loaded machine?): %q", j.Text)
		}
		if live := groupLeft(d.PID); len(live) > 0 {
			t.Errorf("the job outlived the CLI: %v", live)
		}
		j, _ = cli.runJSON(t, "bash", "--timeout", "1000", "yes")
		if !j.Details.TimedOut || len(j.Text) > 60<<10 {
			t.Errorf("yes: %+v, %d bytes of text", j.Details, len(j.Text))
		}
		if live := groupLeft(j.Details.PID); len(live) > 0 {
			t.Errorf("yes outlived the CLI: %v", live)
		}
	})

	t.Run("stdin and closed stdout", func(t *testing.T) {
		r := cli.run(t, "bash", "--timeout", "20000", "cat")
		if r.stdout != "(no output)\n\nexit code: 0\n" {
			t.Errorf("cat: %q", r.stdout)
		}
		r = cli.run(t, "bash", "exec 1>&-; sleep 1; echo e >&2")
		if r.stdout != "stderr:\ne\n\nexit code: 0\n" || r.status != 0 {
			t.Errorf("closed stdout: %d %q", r.status, r.stdout)
		}
	})

	t.Run("interrupt cancels", func(t *testing.T) {
		started := filepath.Join(t.TempDir(), "started")
		cmd := exec.Command(cli.bin, "--json", "bash", "touch "+started+"; sleep 30 & sleep 40; wait")
		cmd.Env = cli.env
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2000; i++ { // the command runs: spillway handles SIGINT
			if _, err := os.Stat(started); err == nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		cmd.Process.Signal(os.Interrupt)
		err := cmd.Wait()
		var j jsonResult
		json.Unmarshal(out.Bytes(), &j)
		// The command's own status: spillway sent it SIGTERM.
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 143 || !strings.Contains(j.Text, "Cancelled") {
			t.Errorf("%v %q", err, out.String())
		}
		if live := groupLeft(j.Details.PID); j.Details.PID == 0 || len(live) > 0 {
			t.Errorf("group %d: %v", j.Details.PID, live)
		}
	})

	t.Run("parent death kills the shell", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		cmd := exec.Command(cli.bin, "bash", "echo $$ > "+pidFile+"; exec sleep 30")
		cmd.Env = cli.env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var shell int
		for range 1000 {
			b, _ := os.ReadFile(pidFile)
			if shell, _ = strconv.Atoi(strings.TrimSpace(string(b))); shell > 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if shell == 0 || !alive(shell) {
			t.Fatalf("the shell did not start")
		}
		cmd.Process.Kill() // no Close, no cleanup: only the kernel acts
		cmd.Wait()
		for i := 0; alive(shell) && i < 1000; i++ {
			time.Sleep(10 * time.Millisecond)
		}
		if alive(shell) {
			if p, err := os.FindProcess(shell); err == nil {
				p.Kill()
			}
			t.Errorf("the shell %d outlived a killed spillway", shell)
		}
	})
}

// --tty with --cols and --rows: a full-screen program's screen is what
// the one-shot command prints (its job ends with the process).
func TestBashCLIScreen(t *testing.T) {
	if _, err := exec.LookPath("less"); err != nil {
		t.Skip("less is not installed")
	}
	t.Parallel()
	cli := newBashCLI(t)
	r := cli.run(t, "bash", "--tty", "--cols", "50", "--rows", "6", "seq 1 100 | less")
	if !strings.HasPrefix(r.stdout, "[screen 50×6, cursor at row 6 col ") || !strings.Contains(r.stdout, "\n1\n2\n3\n4\n5\n") {
		t.Errorf("%+v", r)
	}
}
