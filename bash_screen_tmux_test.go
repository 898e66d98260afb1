package spillway_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// tmux is the reference terminal: a static screen that spillway shows
// must equal, row by row, what `tmux capture-pane -p` shows of the same
// program at the same size after the same keys.

// A screenCase is one program and the keys sent to it, a step at a time.
type screenCase struct {
	name    string
	command string
	env     map[string]string
	steps   [][]string // each step: text, or a key name in angle brackets ("<Space>")
	// ready tells the first screen is drawn in full.
	ready func(rows []string) bool
	// compare compares the rows; nil compares them all.
	compare func(t *testing.T, want, got []string)
}

// tmuxKeys maps the key names of write_stdin to tmux's.
var tmuxKeys = map[string]string{"Space": "Space", "PageDown": "NPage", "Enter": "Enter", "Esc": "Escape", "Down": "Down"}

func trimRows(rows []string) []string {
	for len(rows) > 0 && strings.TrimRight(rows[len(rows)-1], " ") == "" {
		rows = rows[:len(rows)-1]
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimRight(r, " ")
	}
	return out
}

// tmuxScreen runs c in a tmux of cols×rows and returns its screen after
// the steps, each step once the screen has stopped changing.
func tmuxScreen(t *testing.T, dir string, c screenCase, cols, rows int) []string {
	t.Helper()
	sock := fmt.Sprintf("spillway-test-%d-%s", os.Getpid(), c.name)
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	env := []string{"env", "TERM=xterm-256color", "NO_COLOR=1", "PAGER=cat", "GIT_PAGER=cat"}
	for k, v := range c.env {
		env = append(env, k+"="+v)
	}
	cmd := strings.Join(env, " ") + " " + c.command
	tmux("new-session", "-d", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "-c", dir, cmd)
	t.Cleanup(func() { exec.Command("tmux", "-L", sock, "kill-server").Run() })
	capture := func(ready func([]string) bool) []string {
		t.Helper()
		var last string
		same := 0
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			s := tmux("capture-pane", "-p")
			if s == last && (ready == nil || ready(strings.Split(s, "\n"))) {
				if same++; same == 4 {
					return trimRows(strings.Split(strings.TrimSuffix(s, "\n"), "\n"))
				}
				continue
			}
			last, same = s, 0
		}
		t.Fatalf("tmux's screen of %s never settled:\n%s", c.name, last)
		return nil
	}
	capture(c.ready)
	for _, step := range c.steps {
		before := tmux("capture-pane", "-p")
		for _, k := range step {
			if name, ok := strings.CutPrefix(k, "<"); ok {
				tmux("send-keys", tmuxKeys[strings.TrimSuffix(name, ">")])
			} else {
				tmux("send-keys", "-l", k)
			}
		}
		capture(func([]string) bool { return tmux("capture-pane", "-p") != before })
	}
	return capture(nil)
}

// spillwayScreen runs c on a tty job of cols×rows and returns its whole
// screen after the steps.
func spillwayScreen(t *testing.T, ts *spillway.Toolset, c screenCase, cols, rows int) []string {
	t.Helper()
	pid, r := startTTY(t, ts, spillway.BashInput{Command: c.command, Env: c.env, Cols: cols, Rows: rows})
	defer bashKill(t, ts, pid)
	for deadline := time.Now().Add(20 * time.Second); ; {
		s, ok := parseScreen(r.Text)
		if ok && !s.changes && (c.ready == nil || c.ready(screenRows(s))) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("spillway's screen of %s:\n%s", c.name, r.Text)
		}
		var err error
		r, err = ts.CheckJob(context.Background(), spillway.CheckJobInput{PID: pid, Timeout: time.Second, Screen: "full"})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range c.steps {
		in := spillway.WriteStdinInput{PID: pid}
		for _, k := range step {
			if name, ok := strings.CutPrefix(k, "<"); ok {
				in.Keys = append(in.Keys, strings.TrimSuffix(name, ">"))
			} else {
				if len(in.Keys) > 0 {
					t.Fatalf("%s: text after keys in one step", c.name)
				}
				in.Input += k
			}
		}
		writeStdin(t, ts, in)
	}
	r, err := ts.CheckJob(context.Background(), spillway.CheckJobInput{PID: pid, Timeout: 200 * time.Millisecond, Screen: "full"})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := parseScreen(r.Text)
	if !ok {
		t.Fatalf("%s: no screen:\n%s", c.name, r.Text)
	}
	return trimRows(screenRows(s))
}

func screenRows(s shownScreen) []string {
	rows := make([]string, s.rows)
	for i := range rows {
		rows[i] = s.lines[i+1]
	}
	return rows
}

func compareRows(t *testing.T, name string, want, got []string) {
	t.Helper()
	if slices.Equal(want, got) {
		return
	}
	var b strings.Builder
	for i := range max(len(want), len(got)) {
		w, g := "", ""
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		mark := " "
		if w != g {
			mark = "≠"
		}
		fmt.Fprintf(&b, "%s%2d tmux     %q\n   spillway %q\n", mark, i+1, w, g)
	}
	t.Errorf("%s: spillway's screen differs from tmux's:\n%s", name, b.String())
}

// words keeps the words of a row: the layout of a row whose figures
// change from one moment to the next.
var wordRE = regexp.MustCompile(`[A-Za-z]{2,}`)

func words(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(wordRE.FindAllString(r, -1), " ")
	}
	return out
}

func TestScreenMatchesTmux(t *testing.T) {
	needPrograms(t, "tmux")
	t.Parallel()
	dir := t.TempDir()
	tenThousandLines(t, dir)
	var b strings.Builder
	b.WriteString("package main\n\nimport \"fmt\"\n\n")
	b.WriteString("// wide characters: 日本語のテキスト, and an emoji-free line\n")
	b.WriteString("func main() {\n\tfmt.Println(\"tab-indented\")\n}\n")
	b.WriteString(strings.Repeat("a long line that wraps on the screen ", 8) + "\n")
	for i := range 30 {
		fmt.Fprintf(&b, "// filler %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	utf8 := map[string]string{"LANG": "C.UTF-8"}
	cases := []screenCase{
		{name: "less", command: "less big.txt", env: utf8, steps: [][]string{{"<Space>"}, {"<PageDown>"}},
			ready: func(r []string) bool { return slices.Contains(r, "line 39") }},
		{name: "less-search", command: "less big.txt", env: utf8, steps: [][]string{{"/line 5000"}, {"<Enter>"}},
			ready: func(r []string) bool { return slices.Contains(r, "line 39") }},
		{name: "vim", command: "vim -u NONE -n main.go", env: utf8, steps: [][]string{{"G"}, {"ggjjdd"}},
			ready: func(r []string) bool { return strings.Contains(strings.Join(r, "\n"), "main.go") }},
	}
	// Counts past the screen (a repeat, deleted and erased characters,
	// inserted and deleted lines, cursor moves at 65535) are held to it
	// the way tmux holds them. (tmux 3.3a ignores a forward tab count and
	// an insertion that would fill the rest of the row, where xterm and
	// the emulator obey them: those are left out.)
	counts := `printf '\033[?1049h\033[Habc\033[65535bZ\033[5;1Hdelete me\033[5;3H\033[65535P` +
		`\033[7;1Hone\033[8;1Htwo\033[9;1Hthree\033[8;1H\033[65535M\033[14;10H\033[65535Db\033[65535Cc` +
		`\033[16;1Hkeep\033[17;1Hgone\033[17;1H\033[65535Lafter\033[19;1Herase me\033[19;3H\033[65535X\033[20;1Hready'; exec sleep 60`
	cases = append(cases, screenCase{name: "counts", command: counts,
		ready: func(r []string) bool { return strings.Contains(strings.Join(r, "\n"), "ready") }})
	if _, err := exec.LookPath("man"); err == nil {
		if exec.Command("man", "-w", "ls").Run() == nil {
			env := map[string]string{"LANG": "C.UTF-8", "MANPAGER": "less"}
			cases = append(cases, screenCase{name: "man", command: "man ls", env: env, steps: [][]string{{"<Space>"}},
				ready: func(r []string) bool { return strings.Contains(strings.Join(r, "\n"), "Manual page ls(1)") }})
		}
	}
	if _, err := exec.LookPath("htop"); err == nil {
		cases = append(cases, screenCase{name: "htop", command: "htop", env: utf8,
			ready: func(r []string) bool { return strings.Contains(strings.Join(r, "\n"), "F10Quit") },
			compare: func(t *testing.T, want, got []string) {
				// Its figures and processes change by the moment: the
				// words of the meters, the column header and the
				// function keys must agree, row by row.
				header := func(rows []string) []string {
					for i, r := range rows {
						if strings.Contains(r, "PID") && strings.Contains(r, "Command") {
							return append(slices.Clip(rows[:i+1]), rows[len(rows)-1])
						}
					}
					return rows
				}
				compareRows(t, "htop", words(header(want)), words(header(got)))
			}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ts := bashToolset(t, spillway.Options{Cwd: dir})
			want := tmuxScreen(t, dir, c, 120, 40)
			got := spillwayScreen(t, ts, c, 120, 40)
			if c.compare != nil {
				c.compare(t, want, got)
				return
			}
			compareRows(t, c.name, want, got)
		})
	}
}
