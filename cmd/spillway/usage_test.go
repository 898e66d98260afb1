package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/mcpserver"
)

// Every usage error exits 2: a number the flag parser cannot read and a
// negative number alike. A failed call (a missing file) is 1.
func TestUsageErrorsExit2(t *testing.T) {
	cli := newBashCLI(t)
	for _, args := range [][]string{
		{"read", "/etc/hostname", "--offset", "-5"},
		{"read", "/etc/hostname", "--offset", "abc"},
		{"read", "/etc/hostname", "--limit=-1"},
		{"bash", "--timeout", "-1", "true"},
		{"bash", "--max-lines", "-3", "true"},
		{"ls", "--limit", "-1"},
		{"grep", "x", "--context", "-1"},
		{"find", "*", "--limit", "-2"},
	} {
		r := cli.run(t, args...)
		if r.status != 2 || !strings.Contains(r.stderr, "spillway:") || r.stdout != "" {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and a usage error", args, r.status, r.stdout, r.stderr)
		}
	}
	if r := cli.run(t, "read", "/nonexistent/x"); r.status != 1 {
		t.Errorf("a failed call: status %d, want 1", r.status)
	}
}

// A usage error says what to do next: quote the command, the flag that was
// probably meant, the free port to take.
func TestUsageErrorsSayWhatToDo(t *testing.T) {
	cli := newBashCLI(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bash", "ls", "-la"}, "spillway bash 'ls -la'"},
		{[]string{"bash", "echo", "hi"}, "quote it, as in spillway bash 'echo hi'"},
		{[]string{"bash", "--timout", "5", "true"}, "did you mean --timeout?"},
		{[]string{"read", "--ofset", "2", "/etc/hostname"}, "did you mean --offset?"},
		{[]string{"--client", "nosuch", "ls"}, "the clients spillway fits results to are"},
	} {
		r := cli.run(t, c.args...)
		if r.status != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: status %d, stderr %q; want 2 and %q", c.args, r.status, r.stderr, c.want)
		}
	}
	// version and completion list none of the flags that do not apply.
	for _, args := range [][]string{{"version", "--help"}, {"completion", "bash", "--help"}} {
		r := cli.run(t, args...)
		for _, f := range []string{"--sandbox", "--format", "--json", "--root"} {
			if strings.Contains(r.stdout, f) {
				t.Errorf("%q lists %s:\n%s", args, f, r.stdout)
			}
		}
	}
	// --env's help shows the form the CLI takes.
	if r := cli.run(t, "bash", "--help"); strings.Contains(r.stdout, `{"CI"`) || !strings.Contains(r.stdout, "--env CI=1") {
		t.Errorf("bash --help's --env:\n%s", r.stdout)
	}
}

// A busy port is not bad usage: exit status 1, and the way out.
func TestServeBusyPort(t *testing.T) {
	cli := newBashCLI(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r := cli.run(t, "serve", "--no-token", "--listen", l.Addr().String())
	if r.status != 1 || !strings.Contains(r.stderr, "address already in use") || !strings.Contains(r.stderr, "--listen") {
		t.Errorf("serve on a busy port: status %d, stderr %q; want 1 and a --listen hint", r.status, r.stderr)
	}
}

// --client on a tool command prints what that client's model reads: the
// MCP server's policy fitted to it.
func TestCLIClientFit(t *testing.T) {
	cli := newBashCLI(t)
	// Lines of no common shape: the head and tail view, which fills the
	// budget (a stream of few shapes is a digest far under both).
	const cmd = "head -c 3000000 /dev/urandom | base64"
	plain := cli.run(t, "bash", cmd)
	codex := cli.run(t, "--client", "codex", "bash", cmd)
	if plain.status != 0 || codex.status != 0 {
		t.Fatalf("status %d, %d: %s %s", plain.status, codex.status, plain.stderr, codex.stderr)
	}
	if n := len([]rune(codex.stdout)); n > 10_900 || n >= len([]rune(plain.stdout)) {
		t.Errorf("--client codex: %d characters (plain %d); want at most Codex's 10,900", n, len([]rune(plain.stdout)))
	}
	s := cli.run(t, "schema")
	if !strings.Contains(s.stdout, "Default: 50000. At most 55000.") {
		t.Errorf("schema --format mcp does not state the MCP server's timeout (50000, at most 55000)")
	}
}

// Every usage error of the newcomer says what to type instead.
func TestUsageErrorsSayWhatToType(t *testing.T) {
	cli := attackCLI(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"read", "a", "b"}, "one file a call, as in spillway read a, then spillway read b"},
		{[]string{"read"}, "spillway read needs PATH, as in: spillway read README.md"},
		{[]string{"grep", "-r", "foo", "."}, "spillway grep takes no -r: it searches directories recursively already; type: spillway grep foo ."},
		{[]string{"grep", "-l", "foo", "."}, "type: spillway grep --output-mode files_with_matches foo ."},
		{[]string{"grep", "foo", "a", "b"}, "as in spillway grep 'foo a' b"},
		{[]string{"find", "a.go", "b.go", "c.go"}, "spillway find '*.go'"},
		{[]string{"ls", "a", "b"}, "one directory a call, as in spillway ls a"},
		{[]string{"bash", "--check-pid", "5"}, "--check-pid works across the calls of one session"},
		{[]string{"bash", "--session", "s", "true"}, "--session works across the calls of one session"},
		{[]string{"bash", "--diff-with", "last", "true"}, "use it through spillway mcp or serve"},
		{[]string{"bash", "--run-in-background", "sleep 1"}, "--run-in-background works across"},
	} {
		r := cli.runBounded(t, dir, c.args...)
		if r.status != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%q: status %d, stderr %q; want 2 and one line with %q", c.args, r.status, r.stderr, c.want)
		}
	}
	// A path that is not there names the next step, as commands.
	if r := cli.runBounded(t, dir, "grep", "foo", "missing/"); r.status != 1 || !strings.Contains(r.stdout, "Use spillway find or spillway ls to locate it") {
		t.Errorf("grep in a missing path: status %d, %q", r.status, r.stdout)
	}
}

// A hint is the spillway command that makes the next call, the flags the
// person gave kept; --model-text and --client print the model's own words.
func TestHintsAreCommands(t *testing.T) {
	cli := attackCLI(t)
	dir := t.TempDir()
	var lines []string
	for i := 1; i <= 5000; i++ {
		lines = append(lines, strconv.Itoa(i))
	}
	os.WriteFile(filepath.Join(dir, "n.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "long.txt"), []byte(strings.Repeat("x", 5000)+"\n"), 0o644)
	for i := range 30 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", i)), []byte("package x // TODO\n"), 0o644)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"read", "n.txt", "--limit", "3"}, "Run spillway read n.txt --offset 4 --limit 3 to continue]"},
		{[]string{"--profile", "pipe", "read", "n.txt", "--limit", "3"}, "Run spillway --profile pipe read n.txt --offset 4 --limit 3 to continue"},
		{[]string{"read", "long.txt"}, "run spillway read long.txt --offset 1 --char-offset 2000]"},
		{[]string{"ls", ".", "--limit", "3"}, "Run spillway ls . --limit 32 to list them all]"},
		{[]string{"grep", "-i", "todo", ".", "--limit", "2"}, "Run spillway grep todo . --ignore-case --limit 4 for more"},
		{[]string{"find", "*.go", ".", "--limit", "2"}, "Run spillway find '*.go' . --limit 4 for more"},
		{[]string{"bash", "--timeout", "200", "sleep 5"}, "spillway stops it as this command exits"},
	} {
		r := cli.runBounded(t, dir, c.args...)
		if !strings.Contains(r.stdout, c.want) || strings.Contains(r.stdout, "check_pid=") {
			t.Errorf("%q: %q; want %q", c.args, r.stdout, c.want)
		}
	}
	for _, args := range [][]string{{"--model-text", "read", "n.txt", "--limit", "3"}, {"--client", "claude-code", "read", "n.txt", "--limit", "3"}} {
		if r := cli.runBounded(t, dir, args...); !strings.Contains(r.stdout, "Use offset=4 to continue]") {
			t.Errorf("%q: %q; want the model's words", args, r.stdout)
		}
	}
}

// --help says what each profile is, and names the client the way the
// profile does.
func TestHelpSaysWhatEachProfileIs(t *testing.T) {
	help := profileHelp()
	for _, p := range policy.Profiles() {
		if p.Words == "" || !strings.Contains(help, p.Words) {
			t.Errorf("profile %s has no words in spillway --help", p.Name)
		}
	}
	if !strings.Contains(mcpserver.KnownClients(), "claude-code") {
		t.Errorf("--client lists %s, not claude-code as the profile is named", mcpserver.KnownClients())
	}
}
