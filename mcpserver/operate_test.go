package mcpserver_test

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// request sends a request without a body and returns its status, body
// and headers.
func request(t *testing.T, method, url, auth string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequestWithContext(testContext(t), method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(body)), resp.Header
}

// base is the server's URL without the MCP path.
func (s *httpServer) base() string { return strings.TrimSuffix(s.url, "/mcp") }

// wantProbe checks the answer of /healthz or /readyz, without a token.
func wantProbe(t *testing.T, s *httpServer, path string, code int, body string) {
	t.Helper()
	got, b, h := request(t, http.MethodGet, s.base()+path, "")
	if got != code || b != body {
		t.Errorf("GET %s: %d %q, want %d %q", path, got, b, code, body)
	}
	if h.Get("Cache-Control") != "no-store" {
		t.Errorf("GET %s: Cache-Control %q, want no-store", path, h.Get("Cache-Control"))
	}
}

// The probes answer without the token, with the state alone: ready, full
// at the session cap, draining; /metrics and /drain want the token.
func TestProbesInEachState(t *testing.T) {
	t.Parallel()
	const token = "Bearer pr0be"
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=pr0be"}, "--max-sessions", "2", "--drain-timeout", "1m")
	auth := http.Header{"Authorization": {token}}

	wantProbe(t, s, "/healthz", 200, "ok")
	wantProbe(t, s, "/readyz", 200, "ready")
	if code, _, _ := request(t, http.MethodGet, s.base()+"/metrics", ""); code != http.StatusUnauthorized {
		t.Errorf("GET /metrics without the token: %d, want 401", code)
	}
	if code, body, _ := request(t, http.MethodGet, s.base()+"/metrics", token); code != 200 || !strings.Contains(body, "\nspillway_sessions 0\n") {
		t.Errorf("GET /metrics with the token: %d\n%s", code, body)
	}
	if code, _, _ := request(t, http.MethodPost, s.base()+"/drain", ""); code != http.StatusUnauthorized {
		t.Errorf("POST /drain without the token: %d, want 401", code)
	}
	if code, _, _ := request(t, http.MethodPost, s.base()+"/healthz", ""); code != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz: %d, want 405", code)
	}

	// At the session cap: not ready, and the health is unchanged.
	a := connectHTTP(t, s.url, nil, auth, false)
	b := connectHTTP(t, s.url, nil, auth, false)
	wantProbe(t, s, "/readyz", 503, "full")
	wantProbe(t, s, "/healthz", 200, "ok")
	b.Close()
	waitFor(t, "a session to end", func() bool {
		code, _, _ := request(t, http.MethodGet, s.base()+"/readyz", "")
		return code == 200
	})

	// A job keeps the drain waiting.
	job := call(t, a, "bash", map[string]any{"command": "sleep 1000", "run_in_background": true})
	pid := field(details(t, job), "pid")
	if code, body, _ := request(t, http.MethodPost, s.base()+"/drain", token); code != http.StatusAccepted || body != "draining" {
		t.Fatalf("POST /drain: %d %q, want 202 draining", code, body)
	}
	wantProbe(t, s, "/readyz", 503, "draining")
	wantProbe(t, s, "/healthz", 200, "ok")
	code, _, h := postInitializeHeader(t, s.url, token)
	if code != http.StatusServiceUnavailable {
		t.Errorf("initialize while draining: %d, want 503", code)
	}
	if ra, err := strconv.Atoi(h.Get("Retry-After")); err != nil || ra <= 0 {
		t.Errorf("initialize while draining: Retry-After %q, want seconds", h.Get("Retry-After"))
	}
	// The session that was there goes on.
	if res := call(t, a, "ls", map[string]any{}); res.IsError {
		t.Errorf("ls while draining: %s", text(res))
	}
	if res := call(t, a, "bash", map[string]any{"kill_pid": pid}); res.IsError {
		t.Errorf("kill_pid while draining: %s", text(res))
	}
	waitExit(t, s)
}

// postInitializeHeader is postInitialize with the answer's headers.
func postInitializeHeader(t *testing.T, url, auth string) (int, string, http.Header) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequestWithContext(testContext(t), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// waitExit waits for the server to exit by itself, and wants status 0.
func waitExit(t *testing.T, s *httpServer) {
	t.Helper()
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("spillway serve exited with %v, want 0", err)
		}
	case <-time.After(hangGuard):
		s.cmd.Process.Kill()
		t.Fatal("spillway serve did not exit after its drain")
	}
}

// SIGTERM drains: the call in flight completes and its client gets the
// result, a new session gets 503 meanwhile, then serve exits 0 leaving no
// process and no spill directory behind.
func TestDrainWithCallInFlight(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil, "--drain-timeout", "1m")
	cs := connectHTTP(t, s.url, nil, nil, false)
	// A spill directory, to see it removed.
	call(t, cs, "bash", map[string]any{"command": "seq 1 100000"})
	spillDirs, _ := filepath.Glob(filepath.Join(s.tmp, "spillway-*-*"))
	if len(spillDirs) == 0 {
		t.Fatal("no spill directory")
	}
	gate := filepath.Join(t.TempDir(), "go")
	m := marker("drain")
	result := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{
			"command": "while [ ! -e " + gate + " ]; do sleep 0.05; done; echo finished # " + m}})
		if err != nil {
			t.Errorf("the call in flight: %v", err)
		}
		result <- res
	}()
	group := waitForGroup(t, m, 1)

	s.cmd.Process.Signal(syscall.SIGTERM)
	waitFor(t, "readiness to turn 503", func() bool {
		code, _, _ := request(t, http.MethodGet, s.base()+"/readyz", "")
		return code == http.StatusServiceUnavailable
	})
	if code, _, h := postInitializeHeader(t, s.url, ""); code != http.StatusServiceUnavailable || h.Get("Retry-After") == "" {
		t.Errorf("initialize during the drain: %d, Retry-After %q; want 503 with Retry-After", code, h.Get("Retry-After"))
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	res := <-result
	if res == nil || res.IsError || !strings.Contains(text(res), "finished") {
		t.Errorf("the call in flight did not complete: %+v", res)
	}
	waitExit(t, s)
	waitGroupGone(t, group)
	for _, d := range spillDirs {
		if exists(d) {
			t.Errorf("spill directory %s left behind", d)
		}
	}
}

// A second SIGTERM ends a drain at once: the job that held it is killed.
func TestSecondSIGTERMEndsAtOnce(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil, "--drain-timeout", "10m")
	cs := connectHTTP(t, s.url, nil, nil, false)
	m := marker("second")
	call(t, cs, "bash", map[string]any{"command": "sleep 1000; : " + m, "run_in_background": true})
	group := waitForGroup(t, m, 1)
	s.cmd.Process.Signal(syscall.SIGTERM)
	waitFor(t, "readiness to turn 503", func() bool {
		code, _, _ := request(t, http.MethodGet, s.base()+"/readyz", "")
		return code == http.StatusServiceUnavailable
	})
	s.cmd.Process.Signal(syscall.SIGTERM)
	waitExit(t, s)
	waitGroupGone(t, group)
}

// With --node-id, every session id begins with the node, for a proxy to
// route on; a node id a proxy could not route on is refused.
func TestNodeIDInSessionID(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil, "--node-id", "node-7")
	for range 2 {
		cs := connectHTTP(t, s.url, nil, nil, false)
		if id := cs.ID(); !strings.HasPrefix(id, "node-7.") || len(id) < len("node-7.")+20 {
			t.Errorf("session id %q: want node-7.RANDOM", id)
		}
	}
	out, err := runServe(t, "--node-id", "a.b")
	if err == nil || !strings.Contains(out, "node id") {
		t.Errorf("--node-id a.b: %v\n%s", err, out)
	}
}

// runServe runs a serve that is expected to refuse to start, and returns
// its output.
func runServe(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := exec.CommandContext(testContext(t), bin, append([]string{"serve", "--listen", "127.0.0.1:0", "--no-token"}, args...)...)
	cmd.Env = serverEnv(t.TempDir())
	out, err := cmd.CombinedOutput()
	return string(out), err
}
