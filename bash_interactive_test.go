package spillway_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// Tests of interactive jobs: a terminal (tty), a stdin pipe, write_stdin,
// and the detection of a job waiting for input. Waits are bounded and
// generous; no test asserts a duration.

// writeStdin sends input with a generous guard against hangs.
func writeStdin(t testing.TB, ts *spillway.Toolset, in spillway.WriteStdinInput) spillway.Result[spillway.BashDetails] {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := ts.WriteStdin(ctx, in)
	if err != nil {
		t.Fatalf("write_stdin %+v: %v", in, err)
	}
	return res
}

// startWaiting starts command in the background and checks it until it
// is reported waiting for input (at most 10 s), returning its pid and
// what that last check showed (a prompt, an unfinished line, shows in
// every check until the line ends).
func startWaiting(t *testing.T, ts *spillway.Toolset, in spillway.BashInput) (int, string) {
	t.Helper()
	in.RunInBackground = true
	r := bashRun(t, ts, in)
	if r.IsError || r.Details.PID == 0 {
		t.Fatalf("start: %q", r.Text)
	}
	pid := r.Details.PID
	for deadline := time.Now().Add(10 * time.Second); !r.Details.Waiting; {
		if time.Now().After(deadline) || !r.Details.Running {
			t.Fatalf("never reported waiting for input: %+v\n%q", r.Details, r.Text)
		}
		time.Sleep(20 * time.Millisecond)
		r = bashCheck(t, ts, pid)
	}
	if !strings.Contains(r.Text, "seems to wait for input") || !strings.Contains(r.Text, "write_stdin pid=") {
		t.Errorf("waiting notice missing: %q", r.Text)
	}
	return pid, r.Content
}

// read -p answered with "world\n": on a terminal (which echoes the
// answer, and shows the prompt again: the line it began goes on in the
// next window) and on a pipe (no prompt: read -p
// prompts only on a terminal).
func TestReadAnswered(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	for _, c := range []struct {
		in     spillway.BashInput
		prompt string
		answer string
	}{
		{spillway.BashInput{Command: "read -p 'name? ' x; echo hello $x", TTY: true}, "name? ", "name? world\nhello world\n"},
		{spillway.BashInput{Command: "read -p 'name? ' x; echo hello $x", Stdin: true}, "", "hello world\n"},
	} {
		pid, seen := startWaiting(t, ts, c.in)
		if seen != c.prompt {
			t.Errorf("tty %v: before the answer: %q, want %q", c.in.TTY, seen, c.prompt)
		}
		r := writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: "world\n"})
		if r.Content != c.answer || r.Details.Running || bashExit(r) != 0 {
			t.Errorf("tty %v: answer: %+v\n%q", c.in.TTY, r.Details, r.Text)
		}
	}
}

// cat reads its stdin pipe until it is closed.
func TestStdinPipeClosed(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	pid, _ := startWaiting(t, ts, spillway.BashInput{Command: "cat; echo done", Stdin: true})
	r := writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: "one\n"})
	if r.Content != "one\n" || !r.Details.Running || !r.Details.Waiting {
		t.Errorf("first line: %+v\n%q", r.Details, r.Text)
	}
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: "two", Keys: []string{"Enter"}, CloseStdin: true})
	if r.Content != "two\ndone\n" || r.Details.Running || bashExit(r) != 0 {
		t.Errorf("closed: %+v\n%q", r.Details, r.Text)
	}
}

func TestPythonREPLOnTTY(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	pid, seen := startWaiting(t, ts, spillway.BashInput{Command: "python3 -i -q", TTY: true})
	if !strings.Contains(seen, ">>> ") {
		t.Errorf("no prompt: %q", seen)
	}
	r := writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: "1+1\n"})
	if !strings.Contains(r.Content, "\n2\n") || !r.Details.Waiting {
		t.Errorf("1+1: %+v\n%q", r.Details, r.Text)
	}
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Keys: []string{"Ctrl-D"}})
	if r.Details.Running || bashExit(r) != 0 {
		t.Errorf("Ctrl-D: %+v\n%q", r.Details, r.Text)
	}
}

func TestCtrlCOnTTY(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "sleep 100", TTY: true, RunInBackground: true})
	pid := r.Details.PID
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Keys: []string{"Ctrl-C"}, Timeout: 30 * time.Second})
	if r.Details.Running || r.Details.Signal != "SIGINT" {
		t.Errorf("Ctrl-C: %+v\n%q", r.Details, r.Text)
	}
	if live := bashGroupMembers(pid); len(live) > 0 {
		t.Errorf("live group members after Ctrl-C: %v", live)
	}
}

// A foreground call blocked on input returns early, backgrounded, with
// the notice, instead of waiting out its timeout.
func TestForegroundBlockedOnInputBackgrounds(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	for _, in := range []spillway.BashInput{
		{Command: "echo asking; read x; echo got $x", Stdin: true, Timeout: 100 * time.Second},
		{Command: "echo asking; read x; echo got $x", TTY: true, Timeout: 100 * time.Second},
	} {
		start := time.Now()
		r := bashRun(t, ts, in)
		took := time.Since(start)
		if !r.Details.Waiting || !r.Details.Backgrounded || r.Details.TimedOut || !strings.Contains(r.Content, "asking") ||
			!strings.Contains(r.Text, "seems to wait for input") {
			t.Fatalf("tty %v: %+v\n%q", in.TTY, r.Details, r.Text)
		}
		t.Logf("tty %v: returned after %v (timeout %v)", in.TTY, took, in.Timeout)
		r = writeStdin(t, ts, spillway.WriteStdinInput{PID: r.Details.PID, Input: "x\n"})
		if !strings.Contains(r.Content, "got x") || r.Details.Running {
			t.Errorf("tty %v: answer: %+v\n%q", in.TTY, r.Details, r.Text)
		}
	}
}

// Without tty or stdin, stdin stays /dev/null: read ends at once.
func TestNoInputKeepsDevNull(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: "read x; echo status $?; readlink /proc/self/fd/0"})
	if r.Content != "status 1\n/dev/null\n" || r.Details.Waiting {
		t.Errorf("%q", r.Text)
	}
	r = bashRun(t, ts, spillway.BashInput{Command: "sleep 30", RunInBackground: true})
	_, err := ts.WriteStdin(context.Background(), spillway.WriteStdinInput{PID: r.Details.PID, Input: "x"})
	if err == nil || !strings.Contains(err.Error(), "write_stdin: pid") || !strings.Contains(err.Error(), "without input") {
		t.Errorf("write to a job without input: %v", err)
	}
}

// 30 MB through a terminal: the text stays within its limits, the spill
// file holds the whole sanitized stream, and neither holds an escape
// sequence or a carriage return (the terminal adds one to every line).
// The flood is in bytes, so on a loaded machine it may outlast the call's
// timeout (2 MB/s was seen at load 20): then the job is waited for, and
// the spill file is checked once it is whole.
func TestTTYFloodIsBoundedSpilledSanitized(t *testing.T) {
	if testing.Short() {
		t.Skip("30 MB")
	}
	t.Parallel()
	const size = 30_000_000
	ts := bashToolset(t, spillway.Options{})
	start := time.Now()
	r := bashRun(t, ts, spillway.BashInput{
		Command: fmt.Sprintf(`yes $'\e[31mred\e[0m 10%%\r20%%' | head -c %d`, size),
		TTY:     true, Timeout: 50 * time.Second,
	})
	d := r.Details.Stdout
	ended := r
	if r.Details.Running && r.Details.TimedOut {
		_, ended = bashWatch(t, ts, r.Details.PID, "the flood's end", func(_ string, c spillway.Result[spillway.BashDetails]) bool {
			return !c.Details.Running
		})
	}
	took := time.Since(start)
	t.Logf("%.0f MB on a terminal in %v (%.0f MB/s); %d lines, %d bytes sanitized in the first result; text %d bytes",
		size/1e6, took, size/1e6/took.Seconds(), d.Truncation.TotalLines, d.Truncation.TotalBytes, len(r.Text))
	if ended.Details.Running || bashExit(ended) != 0 {
		t.Fatalf("%+v\n%.2000q", ended.Details, ended.Text)
	}
	if !d.Truncation.Truncated || d.FullOutputPath == "" || len(r.Text) > 60_000 {
		t.Errorf("not bounded and spilled: %+v, text %d bytes", d, len(r.Text))
	}
	// The lines are all of one shape: the default profile's digest shows
	// one of them, then says how many are like it.
	if strings.ContainsAny(r.Content, "\x1b\r") || !strings.HasPrefix(r.Content, "20% 10%\n") {
		t.Errorf("text not sanitized: %.200q", r.Content)
	}
	f, err := os.Open(d.FullOutputPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines int64
	buf := make([]byte, 1<<20)
	rest := ""
	for {
		n, err := f.Read(buf)
		chunk := rest + string(buf[:n])
		if strings.ContainsAny(chunk, "\x1b\r") {
			t.Fatalf("spill file not sanitized near line %d", lines)
		}
		lines += int64(strings.Count(chunk, "\n"))
		rest = ""
		if err != nil {
			break
		}
	}
	// Each line "\e[31mred\e[0m 10%\r20%\n" is 21 bytes and shows as
	// "20% 10%" (the carriage return overwrites the line's start); the last is cut
	// short by head -c, without its newline.
	want := int64(size / 21)
	if lines != want {
		t.Errorf("spill file has %d lines, want %d", lines, want)
	}
	if !r.Details.TimedOut && d.Truncation.TotalLines != want+1 {
		t.Errorf("details say %d lines, want %d", d.Truncation.TotalLines, want+1)
	}
}

// The jobs listing: each job's pid, state, input, command and streams.
func TestJobsList(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	if text, jobs := jobsText(t, ts); len(jobs) != 0 || !strings.Contains(text, "no background jobs") {
		t.Errorf("empty listing: %q", text)
	}
	waiting, _ := startWaiting(t, ts, spillway.BashInput{Command: "read -p 'q? ' x", TTY: true})
	running := bashRun(t, ts, spillway.BashInput{Command: "seq 1 100000; sleep 60", RunInBackground: true}).Details.PID
	exited := bashRun(t, ts, spillway.BashInput{Command: "echo bye; exit 3", RunInBackground: true}).Details.PID
	piped := bashRun(t, ts, spillway.BashInput{Command: "sleep 60", Stdin: true, RunInBackground: true}).Details.PID

	want := map[int]string{waiting: "waiting for input", running: "running", exited: "exited", piped: "running"}
	var jobs []spillway.JobInfo
	var text string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		text, jobs = jobsText(t, ts)
		ok := len(jobs) == 4
		for _, j := range jobs {
			ok = ok && j.State == want[j.PID]
		}
		if byPID(jobs, running).Stdout.TotalLines < 100000 {
			ok = false // seq has not finished writing
		}
		if ok || time.Now().After(deadline) {
			break
		}
	}
	for _, j := range jobs {
		if j.State != want[j.PID] {
			t.Errorf("pid %d: state %q, want %q", j.PID, j.State, want[j.PID])
		}
	}
	if j := byPID(jobs, waiting); j.Input != "tty" || j.Command != "read -p 'q? ' x" || j.ExitCode != nil {
		t.Errorf("waiting job: %+v", j)
	}
	if j := byPID(jobs, running); j.Stdout.TotalLines != 100000 || j.Stdout.FullOutputPath == "" || j.Input != "" {
		t.Errorf("running job: %+v", j)
	}
	if j := byPID(jobs, exited); j.ExitCode == nil || *j.ExitCode != 3 || j.Stdout.TotalBytes != 4 {
		t.Errorf("exited job: %+v", j)
	}
	if j := byPID(jobs, piped); j.Input != "stdin" {
		t.Errorf("piped job: %+v", j)
	}
	for _, s := range []string{
		fmt.Sprintf("pid %d waiting for input", waiting), "[tty]",
		fmt.Sprintf("pid %d exited (exit code 3)", exited),
		"stdout: 100000 lines, 575.1KB, full output: " + byPID(jobs, running).Stdout.FullOutputPath,
		"check_pid=PID",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("listing lacks %q:\n%s", s, text)
		}
	}
}

func byPID(jobs []spillway.JobInfo, pid int) spillway.JobInfo {
	for _, j := range jobs {
		if j.PID == pid {
			return j
		}
	}
	return spillway.JobInfo{}
}

// A program on the alternate screen (a full-screen program) is read as
// its screen, with the cursor; once it leaves it, the text that follows
// is back, without what it drew there.
func TestAlternateScreenShownThenText(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{
		Command: `printf '\e[?1049h\e[2J\e[Hmenu\e[5;1Hpick: '; read x; printf '\e[?1049l'; echo chose $x`,
		TTY:     true, Timeout: 30 * time.Second,
	})
	want := "[screen 120×40, cursor at row 5 col 7]\nmenu\n\n\n\npick:\n"
	if !r.Details.Waiting || !strings.HasPrefix(r.Text, want) {
		t.Fatalf("%+v\n%q", r.Details, r.Text)
	}
	if strings.Contains(r.Text, "\x1b") {
		t.Errorf("escape sequences reach the model: %q", r.Text)
	}
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: r.Details.PID, Input: "2\n"})
	if r.Details.Running || r.Content != "chose 2\n" || strings.Contains(r.Text, "[screen") || strings.Contains(r.Text, "menu") {
		t.Errorf("after leaving: %+v\n%q", r.Details, r.Text)
	}
}

// A job that does not read its input: write_stdin gives up at its
// timeout and says how much it wrote, on a terminal as on a pipe.
func TestWriteToJobNotReading(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	for _, in := range []spillway.BashInput{
		{Command: "sleep 100", TTY: true, RunInBackground: true},
		{Command: "sleep 100", Stdin: true, RunInBackground: true},
	} {
		pid := bashRun(t, ts, in).Details.PID
		done := make(chan error, 1)
		go func() {
			_, err := ts.WriteStdin(context.Background(), spillway.WriteStdinInput{
				PID: pid, Input: strings.Repeat("x\n", 1<<19), Timeout: 500 * time.Millisecond})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "of 1048576 bytes: the job is not reading its input") {
				t.Errorf("tty %v: %v", in.TTY, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("tty %v: write_stdin did not give up", in.TTY)
		}
		bashKill(t, ts, pid)
	}
}

// jobsText lists the background jobs as the jobs tool shows them.
func jobsText(t *testing.T, ts *spillway.Toolset) (string, []spillway.JobInfo) {
	t.Helper()
	r, err := ts.Jobs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r.Text, r.Details.Jobs
}
