package spillway_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// Tests of full-screen programs on a terminal, driven as a model drives
// them: Debian's vim, less, top and git. Each needs its program; a
// missing one skips the test (.ci/run installs them).

func needPrograms(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			t.Skipf("%s is not installed", n)
		}
	}
}

// A screen as a result shows it.
type shownScreen struct {
	cols, rows, row, col int
	// lines are the rows shown: all of them for a whole screen, by number
	// (from 1) for the rows that changed.
	lines   map[int]string
	changes bool
}

var screenHeader = regexp.MustCompile(`(?m)^\[screen (\d+)×(\d+), cursor at row (\d+) col (\d+)\]\n`)

// parseScreen reads the screen out of a result's text; ok is false when
// the text shows no screen.
func parseScreen(text string) (s shownScreen, ok bool) {
	m := screenHeader.FindStringSubmatchIndex(text)
	if m == nil {
		return s, false
	}
	n := func(i int) int { v, _ := strconv.Atoi(text[m[2*i]:m[2*i+1]]); return v }
	s.cols, s.rows, s.row, s.col = n(1), n(2), n(3), n(4)
	s.lines = map[int]string{}
	body := text[m[1]:]
	lines := strings.Split(body, "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "[") && strings.Contains(lines[0], "changed since the last look") {
		s.changes = true
		for _, l := range lines[1:] {
			num, rest, found := strings.Cut(l, ": ")
			if !found {
				num, rest, found = strings.Cut(l, ":")
			}
			i, err := strconv.Atoi(num)
			if !found || err != nil {
				break
			}
			s.lines[i] = rest
		}
		return s, true
	}
	for i, l := range lines {
		if i >= s.rows || l == "" && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "[") {
			break
		}
		s.lines[i+1] = l
	}
	return s, true
}

// startTTY starts command on a terminal and returns its pid and the first
// result, once the program waits for its keys.
func startTTY(t *testing.T, ts *spillway.Toolset, in spillway.BashInput) (int, spillway.Result[spillway.BashDetails]) {
	t.Helper()
	in.TTY = true
	in.Timeout = 30 * time.Second
	r := bashRun(t, ts, in)
	if !r.Details.Running || r.Details.PID == 0 {
		t.Fatalf("%q did not keep running: %+v\n%s", in.Command, r.Details, r.Text)
	}
	return r.Details.PID, r
}

func tenThousandLines(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= 10000; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	path := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// less on 10,000 lines: the first screen is lines 1-39 and less's prompt
// on the 40th row; PageDown and Space page on, and only the rows that
// changed come back; q quits, and the shell's text is back.
func TestScreenLess(t *testing.T) {
	needPrograms(t, "less")
	t.Parallel()
	dir := t.TempDir()
	tenThousandLines(t, dir)
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	pid, r := startTTY(t, ts, spillway.BashInput{Command: "echo before; less big.txt; echo after"})
	s, ok := parseScreen(r.Text)
	if !ok || s.cols != 120 || s.rows != 40 || s.changes {
		t.Fatalf("no whole screen of 120×40:\n%s", r.Text)
	}
	for i := 1; i <= 39; i++ {
		if want := fmt.Sprintf("line %d", i); s.lines[i] != want {
			t.Fatalf("row %d is %q, want %q:\n%s", i, s.lines[i], want, r.Text)
		}
	}
	if !strings.HasPrefix(s.lines[40], "big.txt") && s.lines[40] != ":" {
		t.Errorf("row 40 is %q, want less's prompt", s.lines[40])
	}
	if s.row != 40 {
		t.Errorf("cursor at row %d, want 40", s.row)
	}

	page := func(keys []string, first int) {
		t.Helper()
		r := writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Keys: keys})
		s, ok := parseScreen(r.Text)
		if !ok || !s.changes {
			t.Fatalf("after %v: not the changed rows:\n%s", keys, r.Text)
		}
		for i := 1; i <= 39; i++ {
			if want := fmt.Sprintf("line %d", first+i-1); s.lines[i] != want {
				t.Fatalf("after %v: row %d is %q, want %q:\n%s", keys, i, s.lines[i], want, r.Text)
			}
		}
	}
	page([]string{"PageDown"}, 40)
	page([]string{"Space"}, 79)

	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: "q"})
	if _, ok := parseScreen(r.Text); ok || r.Details.Running || bashExit(r) != 0 {
		t.Fatalf("after q: %+v\n%s", r.Details, r.Text)
	}
	if !strings.Contains(r.Content, "after") || strings.Contains(r.Content, "line 1") {
		t.Errorf("after q the shell's text is not back:\n%s", r.Text)
	}
}

// vim -u NONE edits a file through keys, and the file holds the change.
func TestScreenVimEdits(t *testing.T) {
	needPrograms(t, "vim")
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(path, []byte("first line\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	pid, r := startTTY(t, ts, spillway.BashInput{Command: "vim -u NONE -n notes.txt"})
	s, ok := parseScreen(r.Text)
	if !ok || s.lines[1] != "first line" || s.lines[2] != "second line" || s.row != 1 || s.col != 1 {
		t.Fatalf("vim's first screen:\n%s", r.Text)
	}
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: "ihello ", Keys: []string{"Esc"}})
	if s, ok := parseScreen(r.Text); !ok || s.lines[1] != "hello first line" {
		t.Fatalf("after ihello<Esc>:\n%s", r.Text)
	}
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: ":wq", Keys: []string{"Enter"}})
	// On a loaded machine vim may still be between its "written" line
	// and its exit when the output settles: wait for the exit.
	for i := 0; r.Details.Running && i < 10; i++ {
		c, err := ts.CheckJob(context.Background(), spillway.CheckJobInput{PID: pid, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		r = c
	}
	if r.Details.Running || bashExit(r) != 0 {
		t.Fatalf("after :wq<Enter>: %+v\n%s", r.Details, r.Text)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "hello first line\nsecond line\n" {
		t.Fatalf("the file holds %q (%v)", b, err)
	}
}

// top draws one screen, not a flood of frames; a later look gives the
// rows that changed; q quits it.
func TestScreenTopOneScreen(t *testing.T) {
	needPrograms(t, "top")
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	pid, r := startTTY(t, ts, spillway.BashInput{Command: "top -d 0.5"})
	s, ok := parseScreen(r.Text)
	if !ok || !strings.HasPrefix(s.lines[1], "top - ") {
		t.Fatalf("top's screen:\n%s", r.Text)
	}
	if n := strings.Count(r.Text, "top - "); n != 1 {
		t.Errorf("%d frames of top in one result, want one screen:\n%s", n, r.Text)
	}
	header := false
	for _, l := range s.lines {
		header = header || strings.Contains(l, "PID") && strings.Contains(l, "COMMAND")
	}
	if !header {
		t.Errorf("no task header on top's screen:\n%s", r.Text)
	}
	// Frames come every half second: a look that waits for one gives
	// the rows that changed (the clock in the first row at least).
	r, err := ts.CheckJob(context.Background(), spillway.CheckJobInput{PID: pid, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := parseScreen(r.Text); !ok || !s.changes || strings.Count(r.Text, "top - ") > 1 {
		t.Errorf("a later look at top:\n%s", r.Text)
	}
	r, err = ts.CheckJob(context.Background(), spillway.CheckJobInput{PID: pid, Screen: "full"})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := parseScreen(r.Text); !ok || s.changes || !strings.HasPrefix(s.lines[1], "top - ") {
		t.Errorf(`screen: "full" at top:\n%s`, r.Text)
	}
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: "q"})
	if r.Details.Running || bashExit(r) != 0 {
		t.Errorf("after q: %+v\n%s", r.Details, r.Text)
	}
}

// git add -p answered y, then n, stages exactly the first of two hunks.
func TestScreenGitAddPatch(t *testing.T) {
	needPrograms(t, "git")
	t.Parallel()
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "row %d\n", i)
	}
	orig := b.String()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(orig), 0o644)
	git("add", "f.txt")
	git("commit", "-qm", "one")
	changed := strings.Replace(strings.Replace(orig, "row 2\n", "row two\n", 1), "row 38\n", "row thirty-eight\n", 1)
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(changed), 0o644)

	ts := bashToolset(t, spillway.Options{Cwd: dir})
	pid, r := startTTY(t, ts, spillway.BashInput{Command: "git add -p"})
	if !r.Details.Waiting || !strings.Contains(r.Text, "(1/2) Stage this hunk") || !strings.Contains(r.Text, "+row two") {
		t.Fatalf("first hunk:\n%s", r.Text)
	}
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: "y\n"})
	if !strings.Contains(r.Text, "(2/2) Stage this hunk") || !strings.Contains(r.Text, "+row thirty-eight") {
		t.Fatalf("after y:\n%s", r.Text)
	}
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Input: "n\n"})
	if r.Details.Running || bashExit(r) != 0 {
		t.Fatalf("after n: %+v\n%s", r.Details, r.Text)
	}
	staged := git("diff", "--cached")
	if strings.Count(staged, "\n@@ ") != 1 || !strings.Contains(staged, "+row two") || strings.Contains(staged, "thirty-eight") {
		t.Errorf("staged:\n%s", staged)
	}
}

// Resizing a running job's terminal: the program gets SIGWINCH, and the
// screen has the new size.
func TestScreenResize(t *testing.T) {
	needPrograms(t, "less")
	t.Parallel()
	dir := t.TempDir()
	tenThousandLines(t, dir)
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	pid, r := startTTY(t, ts, spillway.BashInput{Command: "less big.txt", Cols: 80, Rows: 24})
	if s, ok := parseScreen(r.Text); !ok || s.cols != 80 || s.rows != 24 || s.lines[23] != "line 23" {
		t.Fatalf("80×24:\n%s", r.Text)
	}
	r = writeStdin(t, ts, spillway.WriteStdinInput{PID: pid, Cols: 100, Rows: 30})
	s, ok := parseScreen(r.Text)
	if !ok || s.cols != 100 || s.rows != 30 || s.changes || s.lines[29] != "line 29" {
		t.Fatalf("resized to 100×30:\n%s", r.Text)
	}
	bashKill(t, ts, pid)
}

// A line-oriented program on a terminal reads as the stream, and it gets
// TERM=xterm-256color (a command without tty keeps TERM=dumb).
func TestScreenLineProgramsReadAsText(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	r := bashRun(t, ts, spillway.BashInput{Command: `echo "$TERM"; stty size`, TTY: true, Timeout: 30 * time.Second})
	if _, ok := parseScreen(r.Text); ok || r.Content != "xterm-256color\n40 120\n" {
		t.Errorf("%q", r.Text)
	}
	r = bashRun(t, ts, spillway.BashInput{Command: `echo "$TERM"`})
	if r.Content != "dumb\n" {
		t.Errorf("without tty: %q", r.Text)
	}
}
