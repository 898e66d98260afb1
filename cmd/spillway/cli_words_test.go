package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/output"
)

// The CLI as a CLI: its hints are commands for the stream they are about,
// it reads its own stdin, and its exit status is the command's.

// runStdin runs the binary with stdin as its input.
func (c bashCLI) runStdin(t *testing.T, stdin string, args ...string) cliRun {
	t.Helper()
	return c.runStdinIn(t, "", stdin, args...)
}

// runStdinIn runs the binary in dir ("" for the test's) with stdin as its
// input.
func (c bashCLI) runStdinIn(t *testing.T, dir, stdin string, args ...string) cliRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env = dir, c.env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	r := cliRun{stdout: out.String(), stderr: errb.String()}
	if ctx.Err() != nil {
		t.Fatalf("spillway %q hung", args)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		r.status = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// Each stream's notice names that stream's file in the command it gives,
// and so does the shape line above it.
func TestHintsNameTheirOwnStream(t *testing.T) {
	cli := attackCLI(t)
	notice := regexp.MustCompile(`(?m)^\[(stdout|stderr): .*Full output: (\S+)\.log\. To see what was cut: run spillway read (\S+)\.log `)
	shape := regexp.MustCompile(`(?m)^\[\.\.\. .*run spillway grep \S+ (\S+)\.log \.\.\.\]$`)
	for _, script := range []string{"seq 1 100; seq 1 100 >&2", "seq 1 100000; seq 1 100000 >&2"} {
		args := []string{"bash", script}
		if !strings.Contains(script, "100000") {
			args = []string{"bash", "--max-lines", "10", script}
		}
		r := cli.runBounded(t, "", args...)
		ms := notice.FindAllStringSubmatch(r.stdout, -1)
		if len(ms) != 2 {
			t.Fatalf("%q: %d notices in %q", script, len(ms), r.stdout)
		}
		for _, m := range ms {
			if m[2] != m[3] || !strings.Contains(m[2], "-"+m[1]+"-") {
				t.Errorf("%q: the %s notice names %s.log and reads %s.log", script, m[1], m[2], m[3])
			}
		}
		if strings.Contains(script, "100000") {
			shapes := shape.FindAllStringSubmatch(r.stdout, -1)
			if len(shapes) != 2 || shapes[0][1] != ms[0][2] || shapes[1][1] != ms[1][2] {
				t.Errorf("%q: shape lines %q, notices %q", script, shapes, ms)
			}
		}
	}
}

// The CLI's stdin reaches the command when it is not a terminal, with
// --stdin or without; the help and the hints say what works in a CLI.
func TestCLIStdinPassesThrough(t *testing.T) {
	cli := attackCLI(t)
	for _, args := range [][]string{{"bash", "read x; echo got $x"}, {"bash", "--stdin", "read x; echo got $x"}} {
		r := cli.runStdin(t, "hello\n", args...)
		if !strings.Contains(r.stdout, "got hello") || r.status != 0 {
			t.Errorf("%q: status %d %q", args, r.status, r.stdout)
		}
	}
	if r := cli.runStdin(t, "a\nb\nc\n", "bash", "wc -l"); !strings.Contains(r.stdout, "\n3\n") {
		t.Errorf("wc -l: %q", r.stdout)
	}
	help := cli.run(t, "bash", "--help").stdout
	line := regexp.MustCompile(`(?m)^\s+--stdin .*$`).FindString(help)
	if line == "" || strings.Contains(line, "write_stdin") {
		t.Errorf("--stdin's help: %q", line)
	}
	// A command on a terminal that waits for input: the advice works
	// when pasted into a shell.
	r := cli.run(t, "bash", "--tty", "--timeout", "20000", "read -p 'name? ' x; echo $x")
	if !strings.Contains(r.stdout, "wait") || strings.Contains(r.stdout, "give the input up front with --stdin") ||
		!strings.Contains(r.stdout, "| spillway bash") {
		t.Errorf("waiting for input: %q", r.stdout)
	}
}

// spillway bash exits with the command's status; 124 when spillway
// stopped it; 2 for usage. The other tools keep 0, 1, 2.
func TestBashExitStatusIsTheCommands(t *testing.T) {
	cli := attackCLI(t)
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"bash", "true"}, 0},
		{[]string{"bash", "exit 3"}, 3},
		{[]string{"bash", "exit 2"}, 2},
		{[]string{"bash", "kill -TERM $$"}, 143},
		{[]string{"--json", "bash", "exit 7"}, 7},
		{[]string{"bash", "--timeout", "500", "sleep 20"}, 124},
		{[]string{"bash", "--tty", "--timeout", "20000", "read x"}, 124},
		{[]string{"bash", "sleep 20 & echo started"}, 0},
		{[]string{"bash", "--timeout", "nope", "true"}, 2},
		{[]string{"read", "/nonexistent/x"}, 1},
		{[]string{"ls", "/"}, 0},
	} {
		if r := cli.runBounded(t, "", c.args...); r.status != c.want {
			t.Errorf("%q: status %d, want %d (%q %q)", c.args, r.status, c.want, r.stdout, r.stderr)
		}
	}
	help := cli.run(t, "bash", "--help").stdout
	for _, want := range []string{"124", "128+"} {
		if !strings.Contains(help, want) {
			t.Errorf("bash --help does not say %q", want)
		}
	}
}

// doctor sees a Claude Code entry made for another folder (local scope)
// and says how to make it global; it names the CLI's own spill directory.
func TestDoctorSeesOtherFoldersAndTheCLISpill(t *testing.T) {
	e := newDoctorEnv(t)
	other := filepath.Join(filepath.Dir(e.proj), "other")
	e.write(t, filepath.Join(e.home, ".claude.json"), `{"projects": {"`+other+`": {"mcpServers": {"spillway": {"command": "spillway", "args": ["mcp"]}}}}}`)
	r := e.doctor(t)
	wantLine(t, r.stdout, statusAbsent, "Claude Code ~/.claude.json", "no entry for spillway", other, "claude mcp add -s user spillway -- spillway mcp")
	// Others may write in this TMPDIR: the CLI keeps its files in the
	// user's cache directory instead, and doctor says so.
	shared := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o1777)
	e.cli.env = append(e.cli.env, "TMPDIR="+shared, "XDG_CACHE_HOME="+filepath.Join(e.home, ".cache"))
	r = e.doctor(t)
	wantLine(t, r.stdout, statusOK, "spill:", "the CLI", "~/.cache/spillway/cli/")
}

// The token file serve writes is where the README and docs/mcp.md say,
// with $XDG_RUNTIME_DIR and without it.
func TestTokenPathIsTheDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	mcpDoc, err := os.ReadFile("../../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	p, err := writeToken("", "http://127.0.0.1:7777/mcp", "x")
	if err != nil || p != filepath.Join(run, "spillway", "serve-7777.token") {
		t.Errorf("with XDG_RUNTIME_DIR: %s %v", p, err)
	}
	cfg := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", cfg)
	p, err = writeToken("", "http://127.0.0.1:7777/mcp", "x")
	if err != nil || p != filepath.Join(cfg, "spillway", "serve-7777.token") {
		t.Errorf("without XDG_RUNTIME_DIR: %s %v", p, err)
	}
	for _, doc := range [][]byte{readme, mcpDoc} {
		flat := strings.Join(strings.Fields(string(doc)), " ")
		for _, want := range []string{"`$XDG_RUNTIME_DIR/spillway/serve-7777.token`", "without `$XDG_RUNTIME_DIR`, to `serve-7777.token` in `$XDG_CONFIG_HOME/spillway/`",
			"export SPILLWAY_TOKEN=$(openssl rand -hex 32)"} {
			if !strings.Contains(flat, want) {
				t.Errorf("a doc does not say %q", want)
			}
		}
	}
}

// Each smaller word of the CLI: what it says is true and can be pasted.
func TestCLISmallerWords(t *testing.T) {
	cli := attackCLI(t)
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "a.txt"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bash.toml"), []byte("[bash]\ntimeout_ms = 5000\n"), 0o644)
	for _, c := range []struct {
		args   []string
		status int
		out    string // in stdout or stderr
		not    string
	}{
		{[]string{"bash", "--screen", "full", "true"}, 2, "--screen works across the calls of one session", "screen go with"},
		{[]string{"find", "*.txt", ".", "--type", "f"}, 0, "sub/a.txt", ""},
		{[]string{"find", "*", ".", "--type", "d"}, 0, "sub/", "a.txt"},
		{[]string{"jobs"}, 2, "jobs works across the calls of one session", "unknown command"},
		{[]string{"write_stdin", "--pid", "3"}, 2, "pipe it into spillway bash", "unknown command"},
		{[]string{"history"}, 2, "spillway read FILE", "unknown command"},
		{[]string{"--format", "json", "schema"}, 2, "is the tool commands' result format", ""},
		{[]string{"--config", filepath.Join(dir, "nonexistent.toml"), "ls"}, 2, "the config file cannot be read", "config: config:"},
		{[]string{"--config", filepath.Join(dir, "bash.toml"), "ls"}, 2, "timeout_ms is a key of the top level", ""},
		{[]string{"read", "sub"}, 1, " to list it", "Use ls"},
		{[]string{"grep", "(?=x)", "."}, 1, "give -F (--literal)", "literal=true"},
		{[]string{"bash", "--help"}, 0, "1.0MB and 100,000 lines a stream", ""},
		{[]string{"find", "--help"}, 0, "f for file", ""},
	} {
		r := cli.runBounded(t, dir, c.args...)
		all := r.stdout + r.stderr
		if r.status != c.status || !strings.Contains(all, c.out) || (c.not != "" && strings.Contains(all, c.not)) {
			t.Errorf("%q: status %d, want %d with %q (not %q):\n%s", c.args, r.status, c.status, c.out, c.not, all)
		}
	}
	if r := cli.runBounded(t, dir, "read", "sub"); !strings.Contains(r.stdout, "Run spillway ls "+filepath.Join(dir, "sub")+" to list it") {
		t.Errorf("read of a directory: %q", r.stdout)
	}
	r := cli.runBounded(t, dir, "doctor", "--config", filepath.Join(dir, "nonexistent.toml"))
	if strings.Contains(r.stdout, "config: config:") {
		t.Errorf("doctor doubles the prefix:\n%s", r.stdout)
	}
	// The help's prose fits a terminal: every line before Usage.
	for _, args := range [][]string{{"--help"}, {"bash", "--help"}, {"read", "--help"}, {"grep", "--help"}, {"find", "--help"},
		{"ls", "--help"}, {"mcp", "--help"}, {"serve", "--help"}, {"schema", "--help"}, {"doctor", "--help"}, {"version", "--help"}} {
		out := cli.runBounded(t, dir, args...).stdout
		head, _, _ := strings.Cut(out, "\nUsage:")
		for _, line := range strings.Split(head, "\n") {
			if len([]rune(line)) > 80 {
				t.Errorf("%q: a line of %d characters: %q", args, len([]rune(line)), line)
			}
		}
	}
}

// A page cut short of the person's --limit (by bytes) goes on with the
// rest of the range asked for, not the whole --limit again from the new
// offset; a page that reached its limit goes on a page of the same size.
func TestPagingHintKeepsTheRange(t *testing.T) {
	for _, c := range []struct {
		cur  string
		next int64
		want string
	}{
		{`{"path": "f.log", "offset": 2, "limit": 99998}`, 10019, "spillway read f.log --offset 10019 --limit 89981"},
		{`{"path": "f.log", "limit": 3000}`, 1114, "spillway read f.log --offset 1114 --limit 1887"},
		{`{"path": "f.log", "offset": 100, "limit": 5}`, 105, "spillway read f.log --offset 105 --limit 5"},
		{`{"path": "f.log"}`, 2001, "spillway read f.log --offset 2001"},
	} {
		var cur map[string]any
		if err := json.Unmarshal([]byte(c.cur), &cur); err != nil {
			t.Fatal(err)
		}
		next := output.Call{"tool": "read", "path": "f.log", "offset": c.next}
		if got := commandLine(next, "read", cur, nil); got != c.want {
			t.Errorf("after %s: %q, want %q", c.cur, got, c.want)
		}
	}
}
