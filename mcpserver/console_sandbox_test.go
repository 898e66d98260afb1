//go:build linux

package mcpserver_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Who can reach the console from a sandboxed command, tried as a
// command the agent runs would: under --sandbox --no-network nothing
// (its socket directory is hidden, the page's port has no route), under
// --sandbox the page's port answers but nothing can be done without the
// login. They start sandboxed servers, which the lifecycle suite's
// switch asks for: SPILLWAY_TEST_SANDBOX=1 go test -run ConsoleSandbox
// ./mcpserver (.ci/run does, where the sandbox works).

// consoleSandboxed starts spillway mcp --root R --sandbox (and flags)
// with the ask rules, a console of it, and a question waiting on the
// page for a command in R; it returns the server, the console's page
// user, R, the question's command and id.
func consoleSandboxed(t *testing.T, flags ...string) (s *consoleServer, b *pageUser, root, command, id string) {
	t.Helper()
	if os.Getenv("SPILLWAY_TEST_SANDBOX") == "" {
		t.Skip("starts sandboxed servers: SPILLWAY_TEST_SANDBOX=1 runs it (.ci/run does where the sandbox works)")
	}
	sandboxLayers(t)
	root = t.TempDir()
	args := append([]string{"--root", root, "--sandbox", "--config", rulesConfig(t)}, flags...)
	s = startConsoleServer(t, nil, "", args...)
	b, _ = openConsole(t, s.dir)
	// The call gives up at once; its question stays on the page, where
	// an approval would let the same command run next time.
	command = "mkdir " + filepath.Join(root, marker("approved"))
	if res := call(t, s.cs, "bash", map[string]any{"command": command, "timeout": 200}); !strings.Contains(text(res), "waiting for approval") {
		t.Fatalf("the question was not left on the page:\n%s", text(res))
	}
	return s, b, root, command, b.pendingItem(command)
}

// sandboxedSays runs script in the sandbox and returns its output.
func sandboxedSays(t *testing.T, s *consoleServer, script string) string {
	t.Helper()
	out := text(call(t, s.cs, "bash", map[string]any{"command": script, "timeout": 20000}))
	t.Logf("inside the sandbox:\n%s", out)
	return out
}

// stillOpen checks that the question is on the page and that the
// command has not run, nor runs when asked again.
func stillOpen(t *testing.T, s *consoleServer, b *pageUser, command, id string) {
	t.Helper()
	if _, page := b.do(http.MethodGet, "/api/view", nil); !strings.Contains(page, id) {
		t.Errorf("the question left the page")
	}
	dir := strings.TrimPrefix(command, "mkdir ")
	if res := call(t, s.cs, "bash", map[string]any{"command": command, "timeout": 200}); exists(dir) || !strings.Contains(text(res), "waiting for approval") {
		t.Errorf("the command ran (%v):\n%s", exists(dir), text(res))
	}
}

// socketProbe tries the server's socket from inside: the directory, and
// a request for the state.
func socketProbe(s *consoleServer) string {
	return fmt.Sprintf(`echo "dir: $(ls -A %[1]s 2>&1 | tr '\n' ' ')"
curl -sS --max-time 5 %[2]s http://x/v1/state; echo "socket curl: $?"
`, s.dir, s.address())
}

func TestConsoleSandboxNoNetworkCannotReach(t *testing.T) {
	t.Parallel()
	s, b, _, command, id := consoleSandboxed(t, "--no-network")
	out := sandboxedSays(t, s, socketProbe(s)+fmt.Sprintf(
		`curl -sS --max-time 5 -o /dev/null -w 'page: %%{http_code}\n' %[1]s/; echo "page curl: $?"
curl -sS --max-time 5 -d 'server=%[2]d&id=%[3]s&choice=allow+once' %[1]s/api/answer; echo "answer curl: $?"
`, b.origin, s.pid, id))
	if strings.Contains(out, ".sock") || strings.Contains(out, ".addr") || strings.Contains(out, `"sessions"`) || strings.Contains(out, "socket curl: 0") || !strings.Contains(out, "socket curl: ") {
		t.Errorf("the command saw or reached the socket:\n%s", out)
	}
	if !strings.Contains(out, "page: 000") || strings.Contains(out, "page curl: 0") || strings.Contains(out, "answer curl: 0") || !strings.Contains(out, "answer curl: ") {
		t.Errorf("the command reached the page's port:\n%s", out)
	}
	stillOpen(t, s, b, command, id)
}

func TestConsoleSandboxCannotAct(t *testing.T) {
	t.Parallel()
	s, b, _, command, id := consoleSandboxed(t)
	// It knows the page's address, the server's pid and the item's id:
	// the worst case. It has no login: that is in the person's tab.
	out := sandboxedSays(t, s, socketProbe(s)+fmt.Sprintf(
		`curl -sS --max-time 5 -o /dev/null -w 'page: %%{http_code}\n' %[1]s/
curl -sS --max-time 5 -o /dev/null -w 'answer: %%{http_code}\n' -d 'server=%[2]d&id=%[3]s&choice=allow+once&csrf=x' -H 'X-Spillway-Csrf: x' -H 'X-Spillway-Login: guess' %[1]s/api/answer
curl -sS --max-time 5 -o /dev/null -w 'cookie: %%{http_code}\n' -d 'server=%[2]d&id=%[3]s&choice=allow+once' -b 'login=guess' %[1]s/api/answer
curl -sS --max-time 5 -o /dev/null -w 'view: %%{http_code}\n' %[1]s/api/view
curl -sS --max-time 5 -o /dev/null -w 'login: %%{http_code}\n' -X POST -H 'X-Spillway-Link: guess' %[1]s/api/login
`, b.origin, s.pid, id))
	if strings.Contains(out, ".sock") || strings.Contains(out, ".addr") || strings.Contains(out, `"sessions"`) || strings.Contains(out, "socket curl: 0") || !strings.Contains(out, "socket curl: ") {
		t.Errorf("the command saw or reached the socket:\n%s", out)
	}
	// The port answers (the sandbox shares the host's loopback), and
	// refuses everything.
	for _, want := range []string{"page: 200", "answer: 401", "cookie: 401", "view: 401", "login: 403"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q:\n%s", want, out)
		}
	}
	stillOpen(t, s, b, command, id)
}
