package mcpserver_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAttackServeLogsNoSessionIDs: serve logged every session's id at info
// level, and a command that read the log (and the token) drove another
// session: its history, its jobs. No log line holds a session id or the
// token; a session is named by a tag that cannot be turned back into its
// id.
func TestAttackServeLogsNoSessionIDs(t *testing.T) {
	t.Parallel()
	const token = "log-attack-token-0123456789"
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=" + token}, "--log-level", "debug", "--idle-timeout", "2s")
	auth := http.Header{"Authorization": {"Bearer " + token}}
	var ids []string
	for i := range 3 {
		cs := connectHTTP(t, s.url, nil, auth, true) // no standing stream: the session may idle out
		ids = append(ids, cs.ID())
		call(t, cs, "bash", map[string]any{"command": "echo hi; seq 1 100000"})
		call(t, cs, "history", map[string]any{})
		call(t, cs, "read", map[string]any{"path": "/nonexistent"})
		if i == 0 {
			cs.Close() // DELETE; the others idle out
		}
	}
	waitFor(t, "the idle session's end", func() bool {
		return strings.Contains(s.stderr.String(), "session idle")
	})
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.cmd.Wait()

	log := s.stderr.String()
	for _, id := range ids {
		if id == "" {
			t.Fatal("a session without an id")
		}
		if strings.Contains(log, id) {
			t.Errorf("the log holds session id %s:\n%s", id, log)
		}
	}
	if strings.Contains(log, token) {
		t.Errorf("the log holds the token:\n%s", log)
	}
	// Sessions are still told apart, by their tags.
	tags := map[string]bool{}
	for _, m := range regexp.MustCompile(`msg="session started" session=([0-9a-f]{12})\n`).FindAllStringSubmatch(log, -1) {
		tags[m[1]] = true
	}
	if len(tags) != len(ids) {
		t.Errorf("%d sessions started, %d tags logged:\n%s", len(ids), len(tags), log)
	}
}

// TestAttackServeIdleConnectionsUnderFDLimit: under `ulimit -n 150`, 200
// connections without the token, each idle after one request, held every
// descriptor (accept4: too many open files), and an authorised call went
// unanswered until they timed out. Connections are capped below the
// limit, and those that made no authorised request are closed, oldest
// first, to make room.
func TestAttackServeIdleConnectionsUnderFDLimit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no ulimit")
	}
	t.Parallel()
	const token = "fd-attack-token-0123456789"
	srvURL := startServeLimited(t, 150, token)
	u, _ := url.Parse(srvURL)

	// Each authorised client dials connections of its own: none kept
	// alive from before the attack.
	authorisedCall := func() time.Duration {
		start := time.Now()
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: bearerTransport{tr, token}}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(testContext(t),
			&mcp.StreamableClientTransport{Endpoint: srvURL, HTTPClient: client, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatalf("connecting: %v", err)
		}
		defer cs.Close()
		res := call(t, cs, "bash", map[string]any{"command": "echo authorised"})
		if res.IsError || !strings.Contains(text(res), "authorised") {
			t.Errorf("the authorised call: %s", text(res))
		}
		return time.Since(start)
	}
	before := authorisedCall()

	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for i := range 200 {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatalf("connection %d: %v", i+1, err)
		}
		conns = append(conns, c)
		// One request without the token; the connection then idles, kept
		// alive.
		io.WriteString(c, "GET /mcp HTTP/1.1\r\nHost: "+u.Host+"\r\n\r\n")
	}

	// The authorised client is answered; the guard (hangGuard, through
	// testContext) only catches a server that does not answer.
	under := authorisedCall()
	t.Logf("an authorised client's connect and call: %v alone, %v under 200 idle connections",
		before.Round(time.Millisecond), under.Round(time.Millisecond))
}

// bearerTransport sends the token with every request.
type bearerTransport struct {
	rt    http.RoundTripper
	token string
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.rt.RoundTrip(r)
}

// startServeLimited starts `spillway serve` with its descriptors limited
// to nofile, and returns its URL.
func startServeLimited(t *testing.T, nofile int, token string) string {
	t.Helper()
	cmd := exec.Command("bash", "-c", `ulimit -n "$1" && shift && exec "$@"`, "bash",
		strconv.Itoa(nofile), bin, "--root", t.TempDir(), "serve", "--listen", "127.0.0.1:0")
	cmd.Env = serverEnv(t.TempDir(), "SPILLWAY_TOKEN="+token)
	pr, pw := io.Pipe()
	stderr := &lockedBuffer{}
	cmd.Stderr = io.MultiWriter(stderr, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(hangGuard):
			cmd.Process.Kill()
			t.Errorf("spillway serve did not exit on SIGTERM")
		}
		pw.Close()
		checkStderr(t, "spillway serve", stderr.String())
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), "serving MCP at "); ok {
				found <- u
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(hangGuard):
		t.Fatalf("spillway serve did not start; stderr:\n%s", stderr)
	}
	return ""
}
