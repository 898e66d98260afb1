package main

import (
	"net"
	"strings"
	"testing"
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
