package golden

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// mcpConn is a JSON-RPC connection to `spillway mcp` over its stdin and
// stdout, written by hand rather than with an SDK client so that what is
// recorded is what the server sent.
type mcpConn struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte
	stderr *lockedBuffer
	nextID int
}

// lockedBuffer collects the server's log, written by exec's goroutine and
// read when a case fails.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (e env) startMCP(t *testing.T, dir string, args ...string) *mcpConn {
	t.Helper()
	cmd := exec.Command(e.bin, append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = e.environ()
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &mcpConn{t: t, cmd: cmd, in: in, lines: make(chan []byte, 16), stderr: new(lockedBuffer)}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				c.lines <- line
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	t.Cleanup(c.close)
	return c
}

// close ends the session as a client does, by closing stdin, and waits
// for the server to stop its jobs and exit.
func (c *mcpConn) close() {
	c.in.Close()
	// Read what the server still sends, so that it never blocks on a
	// full pipe while it ends.
	go func() {
		for range c.lines {
		}
	}()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-done
		c.t.Errorf("spillway mcp did not exit after stdin closed; stderr:\n%s", c.stderr)
	}
}

// request sends a request and returns the raw response (result or error).
func (c *mcpConn) request(method string, params any) json.RawMessage {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	timeout := time.After(60 * time.Second)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("spillway mcp closed stdout during %s; stderr:\n%s", method, c.stderr)
			}
			var msg struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(line, &msg); err != nil {
				c.t.Fatalf("not JSON-RPC from spillway mcp: %v: %s", err, line)
			}
			switch {
			case msg.Method != "" && msg.ID != nil:
				// A request from the server: this client offers no
				// capabilities, so it answers none.
				c.send(map[string]any{"jsonrpc": "2.0", "id": *msg.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			case msg.Method != "":
				// A notification (progress, log): timing decides how many
				// come, so they are not recorded.
			case msg.ID != nil && *msg.ID == id:
				if msg.Error != nil {
					return json.RawMessage(`{"error":` + string(msg.Error) + `}`)
				}
				return json.RawMessage(`{"result":` + string(msg.Result) + `}`)
			}
		case <-timeout:
			c.t.Fatalf("no answer to %s within 60s; stderr:\n%s", method, c.stderr)
		}
	}
}

func (c *mcpConn) notify(method string) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method})
}

func (c *mcpConn) send(msg any) {
	c.t.Helper()
	b, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		c.t.Fatalf("writing to spillway mcp: %v; stderr:\n%s", err, c.stderr)
	}
}

// record renders a request and its response for the corpus: JSON with
// sorted keys (the order of keys on the wire means nothing to a client),
// except that each text a model reads — content[i].text and
// structuredContent.text — is printed verbatim below it, for the eye.
func record(method string, params any, resp json.RawMessage) (rec string, texts []string) {
	var b strings.Builder
	fmt.Fprintf(&b, "--> %s\n%s\n<--\n", method, indent(params))
	var v any
	dec := json.NewDecoder(bytes.NewReader(resp))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return b.String() + string(resp) + "\n", nil
	}
	var shown []string
	if m, ok := v.(map[string]any); ok {
		if r, ok := m["result"].(map[string]any); ok {
			if content, ok := r["content"].([]any); ok {
				for i, item := range content {
					if it, ok := item.(map[string]any); ok {
						if s, ok := it["text"].(string); ok {
							label := fmt.Sprintf("content[%d].text", i)
							it["text"] = "<" + label + " below>"
							texts = append(texts, s)
							shown = append(shown, "--- "+label+"\n"+s)
						}
					}
				}
			}
			if sc, ok := r["structuredContent"].(map[string]any); ok {
				if s, ok := sc["text"].(string); ok {
					sc["text"] = "<structuredContent.text below>"
					texts = append(texts, s)
					shown = append(shown, "--- structuredContent.text\n"+s)
				}
			}
		}
	}
	b.WriteString(indent(v) + "\n")
	for _, s := range shown {
		b.WriteString(s)
		if !strings.HasSuffix(s, "\n") {
			b.WriteString("\n[no newline at the end]\n")
		}
	}
	return b.String(), texts
}

func indent(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// mcpSession is one `spillway mcp` process and its calls, recorded in
// order under mcp/NAME/.
type mcpSession struct {
	t    *testing.T
	e    env
	name string
	conn *mcpConn
	norm *normalizer
	sync string // a directory outside the fixture where the test signals jobs
	n    int
}

func (e env) newSession(t *testing.T, name string, clientName string, args ...string) *mcpSession {
	t.Helper()
	s := &mcpSession{t: t, e: e, name: name, norm: newNormalizer(e)}
	s.sync = filepath.Join(e.root, "sync", strings.ReplaceAll(name, "/", "-"))
	if err := os.MkdirAll(s.sync, 0o755); err != nil {
		t.Fatal(err)
	}
	s.conn = e.startMCP(t, e.fixture, args...)
	params := map[string]any{
		"protocolVersion": "2025-06-18",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": clientName, "version": "1.0.0"},
	}
	s.save("initialize", "initialize", params, s.conn.request("initialize", params))
	s.conn.notify("notifications/initialized")
	return s
}

func (s *mcpSession) save(label, method string, params any, resp json.RawMessage) json.RawMessage {
	s.t.Helper()
	s.n++
	rec, texts := record(method, params, resp)
	check(s.t, fmt.Sprintf("mcp/%s/%02d-%s", s.name, s.n, label), s.norm.finish(rec, texts...))
	return resp
}

func (s *mcpSession) listTools() {
	s.t.Helper()
	s.save("tools-list", "tools/list", map[string]any{}, s.conn.request("tools/list", map[string]any{}))
}

// call calls a tool and records it; it returns the result's details or
// structured content for a caller that needs a value from it (a pid).
func (s *mcpSession) call(label, tool string, args map[string]any) json.RawMessage {
	s.t.Helper()
	params := map[string]any{"name": tool, "arguments": args}
	return s.save(label, "tools/call", params, s.conn.request("tools/call", params))
}

// signal makes the file a job waits for.
func (s *mcpSession) signal(name string) { s.write(name, "") }

// write writes a file in the session's sync directory.
func (s *mcpSession) write(name, text string) {
	s.t.Helper()
	if err := os.WriteFile(filepath.Join(s.sync, name), []byte(text), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// waitFor is a shell snippet that waits for the test to signal name.
func (s *mcpSession) waitFor(name string) string {
	return fmt.Sprintf("until [ -e %s/%s ]; do sleep 0.02; done", s.sync, name)
}

// pidOf finds the pid a bash result gives, in its text.
func pidOf(t *testing.T, resp json.RawMessage) int {
	t.Helper()
	for _, m := range pidRE.FindAllStringSubmatch(string(resp), -1) {
		var n int
		fmt.Sscan(m[2], &n)
		if n > 0 {
			return n
		}
	}
	t.Fatalf("no pid in %s", resp)
	return 0
}
