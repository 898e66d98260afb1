package mcpserver

// In-process tests of the server (run under the race detector by CI): the
// SDK's client against ServeStdio over pipes and against the HTTP handler
// in an httptest server.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
)

const guard = 30 * time.Second

// toolsets records the toolsets a server made.
type toolsets struct {
	mu  sync.Mutex
	all []*spillway.Toolset
	tmp string
}

func (r *toolsets) config(t *testing.T) Config {
	r.tmp = t.TempDir()
	return Config{NewToolset: func(Client) (*spillway.Toolset, error) {
		p := spillway.DefaultPolicy()
		p.Spill.Dir = r.tmp
		ts, err := spillway.New(spillway.Options{Cwd: r.tmp, Policy: &p})
		if err == nil {
			r.mu.Lock()
			r.all = append(r.all, ts)
			r.mu.Unlock()
		}
		return ts, err
	}}
}

func (r *toolsets) made() []*spillway.Toolset {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*spillway.Toolset(nil), r.all...)
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	t.Cleanup(cancel)
	return ctx
}

func callTool(t *testing.T, cs *mcp.ClientSession, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "bash", Arguments: args})
	if err != nil {
		t.Fatalf("bash %v: %v", args, err)
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func pidOf(t *testing.T, res *mcp.CallToolResult) float64 {
	t.Helper()
	m, _ := res.Meta[DetailsMetaKey].(map[string]any)
	pid, _ := m["pid"].(float64)
	if pid == 0 {
		t.Fatalf("no pid in %v (%q)", res.Meta, resultText(res))
	}
	return pid
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A stdio session: concurrent calls, one toolset, closed (spill directory
// removed) when the client hangs up.
func TestServeStdioSession(t *testing.T) {
	var rec toolsets
	cfg := rec.config(t)
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- ServeStdio(ctxFor(t), cfg, serverIn, serverOut)
		serverOut.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
		Connect(ctxFor(t), &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		t.Fatal(err)
	}

	bg := callTool(t, cs, map[string]any{"command": "seq 1 100000; sleep 60", "run_in_background": true})
	pid := pidOf(t, bg)

	// A long call in flight does not hold up the others.
	longCtx, cancelLong := context.WithCancel(ctxFor(t))
	longDone := make(chan struct{})
	go func() {
		cs.CallTool(longCtx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "sleep 30"}})
		close(longDone)
	}()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			res := callTool(t, cs, map[string]any{"check_pid": pid})
			if res.IsError {
				t.Errorf("check_pid: %q", resultText(res))
			}
		})
	}
	wg.Wait()
	select {
	case <-longDone:
		t.Error("the long call ended before the checks")
	default:
	}
	cancelLong()
	<-longDone

	made := rec.made()
	if len(made) != 1 {
		t.Fatalf("%d toolsets for one stdio session", len(made))
	}
	var dir string
	eventually(t, "a spill directory after seq 1 100000", func() bool {
		dir = made[0].SpillDir()
		return dir != ""
	})
	cs.Close() // closes stdin
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(guard):
		t.Fatal("ServeStdio did not return when stdin closed")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("spill directory %s still there after the session ended", dir)
	}
}

func startHandler(t *testing.T, cfg HTTPConfig) (*httpHandler, string) {
	h := newHTTPHandler(cfg)
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.sessions.closeAll()
		srv.Close()
	})
	return h, srv.URL + Path
}

func connect(t *testing.T, url string, noStandaloneSSE bool) *mcp.ClientSession {
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctxFor(t),
		&mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: noStandaloneSSE}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// HTTP sessions get a toolset each, isolated; DELETE ends one.
func TestHTTPSessions(t *testing.T) {
	var rec toolsets
	h, url := startHandler(t, HTTPConfig{Config: rec.config(t)})
	a, b := connect(t, url, false), connect(t, url, false)

	pid := pidOf(t, callTool(t, a, map[string]any{"command": "seq 1 100000; sleep 60", "run_in_background": true}))
	if res := callTool(t, b, map[string]any{"check_pid": pid}); !res.IsError || !strings.Contains(resultText(res), fmt.Sprint(pid)) {
		t.Errorf("B checked A's job: %q", resultText(res))
	}
	if res := callTool(t, a, map[string]any{"check_pid": pid}); res.IsError {
		t.Errorf("A's own check_pid: %q", resultText(res))
	}
	made := rec.made()
	if len(made) != 2 {
		t.Fatalf("%d toolsets for two sessions", len(made))
	}
	var dirA string
	eventually(t, "A's spill directory", func() bool {
		for _, ts := range made {
			if d := ts.SpillDir(); d != "" {
				dirA = d
			}
		}
		return dirA != ""
	})
	if h.sessions.len() != 2 {
		t.Errorf("%d sessions in the table, want 2", h.sessions.len())
	}

	a.Close() // DELETE
	eventually(t, "A's session to end", func() bool { return h.sessions.len() == 1 })
	eventually(t, "A's spill directory to go", func() bool {
		_, err := os.Stat(dirA)
		return os.IsNotExist(err)
	})
	if res := callTool(t, b, map[string]any{"command": "echo b"}); res.IsError {
		t.Errorf("B after A ended: %q", resultText(res))
	}
}

// The idle timer ends a session that has no request in flight; when it
// fires on a session with a call in flight, the session stays.
func TestHTTPIdleSessions(t *testing.T) {
	var rec toolsets
	h, url := startHandler(t, HTTPConfig{Config: rec.config(t), IdleTimeout: 300 * time.Millisecond})
	idle := connect(t, url, true)
	callTool(t, idle, map[string]any{"command": "true"})
	eventually(t, "the idle session to end", func() bool { return !h.sessions.has(idle.ID()) })

	// The timer's firing is simulated while a call is in flight (on a
	// server whose own timer is too long to fire): the test must not
	// depend on how fast this machine starts the call.
	h, url = startHandler(t, HTTPConfig{Config: rec.config(t), IdleTimeout: time.Hour})
	busy := connect(t, url, true)
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := busy.CallTool(ctxFor(t), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "sleep 1; echo slept"}})
		done <- answer{res, err}
	}()
	var e *entry
	eventually(t, "the call to be in flight", func() bool {
		if e = h.sessions.entry(busy.ID()); e == nil {
			return false
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.active > 0
	})
	h.sessions.expire(e)
	a := <-done
	if a.err != nil || a.res.IsError || !strings.Contains(resultText(a.res), "slept") {
		t.Fatalf("the busy session's call: %v %v", a.err, a.res)
	}
	if !h.sessions.has(busy.ID()) {
		t.Error("the busy session ended")
	}
	// Once the call's request has ended, the timer ends the session.
	eventually(t, "the session, now idle, to end", func() bool {
		h.sessions.expire(e)
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.ended
	})
}

func TestOriginAllowed(t *testing.T) {
	allowed := map[string]bool{}
	for _, o := range append(ownOrigins("7777"), "https://allowed.example") {
		n, ok := normalOrigin(o)
		if !ok {
			t.Fatalf("normalOrigin(%q) refused", o)
		}
		allowed[n] = true
	}
	for _, tc := range []struct {
		origin string
		want   bool
	}{
		{"", true},
		{"http://localhost:7777", true},
		{"http://127.0.0.1:7777", true},
		{"http://[::1]:7777", true},
		{"HTTP://LOCALHOST:7777", true}, // the same origin (RFC 6454)
		{"http://localhost:7777/", true},
		{"https://allowed.example", true}, // configured
		{"https://allowed.example:443", true},
		{"HTTPS://Allowed.Example", true},
		{"http://localhost", false}, // another port: another origin
		{"http://localhost:3000", false},
		{"HTTP://LOCALHOST", false},
		{"https://localhost:7777", false},
		{"http://evil.localhost:7777", false},
		{"http://app.localhost:7777", false},
		{"http://localhost.:7777", false},
		{"http://127.0.0.2:7777", false},
		{"https://evil.example", false},
		{"http://localhost.evil.example", false},
		{"http://allowed.example", false},
		{"https://allowed.example:8443", false},
		{"http://user@localhost:7777", false},
		{"null", false},
		{"file://", false},
		{"chrome-extension://abc", false},
	} {
		if got := originAllowed(tc.origin, allowed); got != tc.want {
			t.Errorf("originAllowed(%q) = %v, want %v", tc.origin, got, tc.want)
		}
	}
}

func TestCheckListen(t *testing.T) {
	for _, tc := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:7777", "", true},
		{"localhost:0", "", true},
		{"[::1]:7777", "", true},
		{"0.0.0.0:7777", "", false},
		{":7777", "", false},
		{"[::]:7777", "", false},
		{"192.168.1.5:7777", "", false},
		{"0.0.0.0:7777", "t", true},
		{"no-port", "", false},
	} {
		err := CheckListen(tc.addr, tc.token)
		if (err == nil) != tc.ok {
			t.Errorf("CheckListen(%q, %q) = %v, want ok %v", tc.addr, tc.token, err, tc.ok)
		}
		if err != nil && tc.addr != "no-port" && !strings.Contains(err.Error(), "SPILLWAY_TOKEN") {
			t.Errorf("CheckListen(%q): %v does not name the token", tc.addr, err)
		}
	}
}

func TestHTTPRefusals(t *testing.T) {
	var rec toolsets
	_, url := startHandler(t, HTTPConfig{Config: rec.config(t), Token: "tok"})
	for _, tc := range []struct {
		name, origin, auth, path string
		want                     int
	}{
		{"foreign origin", "https://evil.example", "Bearer tok", Path, http.StatusForbidden},
		{"no token", "", "", Path, http.StatusUnauthorized},
		{"wrong token", "", "Bearer nope", Path, http.StatusUnauthorized},
		{"basic auth", "", "Basic dG9rOg==", Path, http.StatusUnauthorized},
		{"other path", "", "Bearer tok", "/other", http.StatusNotFound},
	} {
		req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(url, Path)+tc.path, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
}

func TestDecodeLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		code int64
		id   any
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 0, nil},
		{`  {"jsonrpc":"2.0","method":"notifications/initialized"}  `, 0, nil},
		{`{"jsonrpc":"2.0","id":1,"method":`, -32700, nil},
		{`{]`, -32700, nil},
		{`{"id":"x","method":"ping"}`, -32600, "x"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, nil},
		{`[1,2]`, -32600, nil},
		{`"just a string"`, -32600, nil},
	} {
		msg, lerr := decodeLine([]byte(tc.line))
		if tc.code == 0 {
			if lerr != nil || msg == nil {
				t.Errorf("%s: %v", tc.line, lerr)
			}
			continue
		}
		if lerr == nil {
			t.Errorf("%s: decoded, want error %d", tc.line, tc.code)
			continue
		}
		if lerr.code != tc.code {
			t.Errorf("%s: code %d, want %d", tc.line, lerr.code, tc.code)
		}
		var got any
		if lerr.id.IsValid() {
			got = lerr.id.Raw()
		}
		if got != tc.id {
			t.Errorf("%s: id %v, want %v", tc.line, got, tc.id)
		}
		if enc := string(lerr.encode()); !strings.Contains(enc, `"id":`) {
			t.Errorf("%s: %s has no id member", tc.line, enc)
		}
	}
}

// A line longer than the limit is answered, skipped, and reading goes on.
func TestReadLineTooLong(t *testing.T) {
	long := strings.Repeat("x", maxLineBytes+10)
	r := &lineTransport{r: strings.NewReader(long + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"),
		w: io.Discard, log: Config{}.logger()}
	conn, _ := r.Connect(context.Background())
	msg, err := conn.Read(ctxFor(t))
	if err != nil {
		t.Fatal(err)
	}
	if req, ok := msg.(interface{ IsCall() bool }); !ok || !req.IsCall() {
		t.Errorf("after a too-long line, read %v", msg)
	}
	if _, err := conn.Read(ctxFor(t)); err != io.EOF {
		t.Errorf("at the end: %v, want EOF", err)
	}
}

// TestHTTPSlowBody: a client that sends its headers and then its body
// never (1000 such POSTs held 1210 descriptors for 70 s and more) gets
// 408 once the body timeout passes, and its connection back.
func TestHTTPSlowBody(t *testing.T) {
	var rec toolsets
	_, u := startHandler(t, HTTPConfig{Config: rec.config(t), BodyTimeout: 200 * time.Millisecond})
	addr := strings.TrimPrefix(strings.TrimSuffix(u, Path), "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", Path, addr)
	conn.SetReadDeadline(time.Now().Add(hangGuardUnit))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a body that never came: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("status %d, want 408", resp.StatusCode)
	}
}

// hangGuardUnit bounds a wait that only guards against a hang.
const hangGuardUnit = 30 * time.Second
