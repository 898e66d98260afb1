package mcpserver_test

// Integration tests: they build the spillway binary (TestMain) and drive
// `spillway mcp` over stdio and `spillway serve` over Streamable HTTP with
// the official Go SDK's client.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A transport connects a client to a fresh server; tmp is the server's
// TMPDIR.
type transport struct {
	name    string
	connect func(t *testing.T, opts *mcp.ClientOptions) (cs *mcp.ClientSession, tmp string)
}

var transports = []transport{
	{"stdio", func(t *testing.T, opts *mcp.ClientOptions) (*mcp.ClientSession, string) {
		tmp := t.TempDir()
		return connectStdio(t, tmp, opts), tmp
	}},
	{"http", func(t *testing.T, opts *mcp.ClientOptions) (*mcp.ClientSession, string) {
		s := startHTTP(t, nil)
		return connectHTTP(t, s.url, opts, nil, false), s.tmp
	}},
}

func forEachTransport(t *testing.T, f func(t *testing.T, tr transport)) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			f(t, tr)
		})
	}
}

func wantTools() []string {
	return []string{"bash", "write_stdin", "jobs", "read", "grep", "find", "ls", "edit", "write", "apply_patch", "history"}
}

// writes reports whether a tool may change anything (no readOnlyHint).
func writes(tool string) bool {
	switch tool {
	case "bash", "write_stdin", "edit", "write", "apply_patch":
		return true
	}
	return false
}

func TestToolsList(t *testing.T) {
	t.Parallel()
	forEachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := tr.connect(t, nil)
		res, err := cs.ListTools(testContext(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if tool.InputSchema == nil {
				t.Errorf("%s: input schema missing", tool.Name)
			}
			// A tool with an outputSchema must return structuredContent,
			// which most clients show the model instead of the text.
			if tool.OutputSchema != nil {
				t.Errorf("%s: an output schema without --typed-results", tool.Name)
			}
			if tool.Annotations == nil {
				t.Errorf("%s: no annotations", tool.Name)
				continue
			}
			if want := !writes(tool.Name); tool.Annotations.ReadOnlyHint != want {
				t.Errorf("%s: readOnlyHint = %v, want %v", tool.Name, tool.Annotations.ReadOnlyHint, want)
			}
		}
		slices.Sort(names) // the SDK lists tools by name
		want := slices.Sorted(slices.Values(wantTools()))
		if !slices.Equal(names, want) {
			t.Errorf("tools = %v, want %v", names, want)
		}
		bash := res.Tools[slices.IndexFunc(res.Tools, func(t *mcp.Tool) bool { return t.Name == "bash" })]
		for _, s := range []string{"check_pid", "kill_pid", "run_in_background", "2000 lines", "50.0KB"} {
			if !strings.Contains(bash.Description, s) {
				t.Errorf("bash description does not mention %q", s)
			}
		}
	})
}

func TestBash(t *testing.T) {
	t.Parallel()
	forEachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := tr.connect(t, nil)
		res := call(t, cs, "bash", map[string]any{"command": "echo hello; echo oops >&2; exit 2"})
		if !res.IsError {
			t.Error("exit code 2 is not an error")
		}
		if got, want := text(res), "stdout:\nhello\n\nstderr:\noops\n\nexit code: 2"; got != want {
			t.Errorf("text = %q, want %q", got, want)
		}
		d := details(t, res)
		if d["exit_code"] != 2.0 {
			t.Errorf("exit_code = %v, want 2", d["exit_code"])
		}
		// No structuredContent: clients would show it instead of the text.
		// The details hold metadata only, never the text again.
		if res.StructuredContent != nil {
			t.Errorf("structuredContent without --typed-results: %v", res.StructuredContent)
		}
		data, _ := json.Marshal(d)
		if bytes.Contains(data, []byte("hello")) || d["text"] != nil {
			t.Errorf("the details repeat the output: %s", data)
		}

		ok := call(t, cs, "bash", map[string]any{"command": "pwd", "cwd": "/", "env": map[string]any{"X": "1"}})
		if ok.IsError || !strings.Contains(text(ok), "stdout:\n/\n") {
			t.Errorf("pwd in /: %q (isError %v)", text(ok), ok.IsError)
		}

		bad := call(t, cs, "bash", map[string]any{"command": "true", "no_such_param": 1})
		if !bad.IsError || !strings.Contains(text(bad), "no_such_param") {
			t.Errorf("unknown parameter: isError %v, text %q", bad.IsError, text(bad))
		}
	})
}

// A flood is cut, the notice names the spill file, and read pages through
// it in the same session.
func TestBashSpillThenRead(t *testing.T) {
	t.Parallel()
	forEachTransport(t, func(t *testing.T, tr transport) {
		cs, tmp := tr.connect(t, nil)
		res := call(t, cs, "bash", map[string]any{"command": "seq 1 100000"})
		d := details(t, res)
		path, _ := field(d, "stdout.full_output_path").(string)
		if path == "" || !strings.HasPrefix(path, tmp) {
			t.Fatalf("full_output_path = %q, want a file under %s", path, tmp)
		}
		if !strings.Contains(text(res), "Full output: "+path) {
			t.Errorf("the notice does not name %s:\n%.300s", path, text(res))
		}
		if field(d, "stdout.truncation.truncated") != true || field(d, "stdout.truncation.total_lines") != 100000.0 {
			t.Errorf("truncation = %v", field(d, "stdout.truncation"))
		}
		if n := len(text(res)); n > 60*1024 {
			t.Errorf("text is %d bytes, over the 50 KiB limit", n)
		}
		page := call(t, cs, "read", map[string]any{"path": path, "offset": 99999})
		if page.IsError || !strings.HasPrefix(text(page), "99999\n100000") {
			t.Errorf("read of the spill file at 99999: %q", text(page))
		}
	})
}

func TestFileTools(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var pngData bytes.Buffer
	png.Encode(&pngData, img)
	if err := os.WriteFile(filepath.Join(dir, "dot.png"), pngData.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)

	forEachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := tr.connect(t, nil)
		res := call(t, cs, "read", map[string]any{"path": filepath.Join(dir, "a.txt"), "offset": 2, "line_numbers": true})
		if res.IsError || !strings.Contains(text(res), "two") || strings.Contains(text(res), "one") {
			t.Errorf("read offset 2: %q", text(res))
		}
		d := details(t, res)
		if d["kind"] != "text" || d["total_lines"] != 3.0 || d["offset"] != 2.0 {
			t.Errorf("read details = %v", d)
		}

		res = call(t, cs, "read", map[string]any{"path": filepath.Join(dir, "dot.png")})
		if res.IsError || len(res.Content) == 0 {
			t.Fatalf("read of a PNG: isError %v, %d contents", res.IsError, len(res.Content))
		}
		ic, ok := res.Content[0].(*mcp.ImageContent)
		if !ok {
			t.Fatalf("read of a PNG returned %T, want image content", res.Content[0])
		}
		if ic.MIMEType != "image/png" || !bytes.Equal(ic.Data, pngData.Bytes()) {
			t.Errorf("image content: %s, %d bytes (want image/png, %d bytes)", ic.MIMEType, len(ic.Data), pngData.Len())
		}
		if d := details(t, res); d["kind"] != "image" {
			t.Errorf("image details = %v", d)
		}

		res = call(t, cs, "read", map[string]any{"path": dir})
		if !res.IsError || !strings.Contains(text(res), "ls") {
			t.Errorf("read of a directory: isError %v, %q (want an error suggesting ls)", res.IsError, text(res))
		}

		res = call(t, cs, "ls", map[string]any{"path": dir})
		if res.IsError || text(res) != "a.txt\ndot.png\nsub/\n" && text(res) != "a.txt\ndot.png\nsub/" {
			t.Errorf("ls: %q", text(res))
		}
		if d := details(t, res); d["count"] != 3.0 {
			t.Errorf("ls details = %v", d)
		}

		res = call(t, cs, "grep", map[string]any{"pattern": "t[wh]", "path": dir})
		want := filepath.Join(dir, "a.txt") + ":2: two\n" + filepath.Join(dir, "a.txt") + ":3: three"
		if res.IsError || !strings.HasPrefix(text(res), want) {
			t.Errorf("grep: %q, want %q", text(res), want)
		}
		if d := details(t, res); d["match_count"] != 2.0 || d["file_count"] != 1.0 {
			t.Errorf("grep details = %v", d)
		}
		res = call(t, cs, "grep", map[string]any{"pattern": "(", "path": dir})
		if !res.IsError {
			t.Errorf("grep of a bad regexp: %q", text(res))
		}
		res = call(t, cs, "grep", map[string]any{"pattern": "nothing matches this", "path": dir})
		if res.IsError || !strings.Contains(text(res), "No matches found") {
			t.Errorf("grep without a match: isError %v, %q", res.IsError, text(res))
		}

		res = call(t, cs, "find", map[string]any{"pattern": "*.png", "path": dir})
		if res.IsError || !strings.Contains(text(res), "dot.png") || strings.Contains(text(res), "a.txt") {
			t.Errorf("find *.png: %q", text(res))
		}
		res = call(t, cs, "find", map[string]any{"pattern": "*", "path": dir, "type": "dir"})
		if res.IsError || !strings.Contains(text(res), "sub/") || strings.Contains(text(res), "a.txt") {
			t.Errorf("find type dir: %q", text(res))
		}
		if d := details(t, res); d["count"] != 1.0 {
			t.Errorf("find details = %v", d)
		}
	})
}

// During a 3 s command the client gets progress notifications with its
// token, progress increasing, and a message that counts the output.
func TestProgress(t *testing.T) {
	t.Parallel()
	forEachTransport(t, func(t *testing.T, tr transport) {
		var mu sync.Mutex
		var got []*mcp.ProgressNotificationParams
		cs, _ := tr.connect(t, &mcp.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
				mu.Lock()
				got = append(got, req.Params)
				mu.Unlock()
			},
		})
		params := &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "for i in 1 2 3; do echo $i; sleep 1; done"}}
		params.SetProgressToken("tok-" + tr.name)
		res, err := cs.CallTool(testContext(t), params)
		if err != nil || res.IsError {
			t.Fatalf("call: %v %q", err, text(res))
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) < 2 {
			t.Fatalf("got %d progress notifications during a 3 s command, want at least 2", len(got))
		}
		last := 0.0
		for _, p := range got {
			if p.ProgressToken != "tok-"+tr.name {
				t.Errorf("progress token %v, want tok-%s", p.ProgressToken, tr.name)
			}
			if p.Progress <= last {
				t.Errorf("progress %v after %v: not increasing", p.Progress, last)
			}
			last = p.Progress
			if !strings.Contains(p.Message, "of output so far") {
				t.Errorf("progress message %q", p.Message)
			}
		}
		if !strings.Contains(got[len(got)-1].Message, "line") {
			t.Errorf("last progress message %q does not count lines", got[len(got)-1].Message)
		}

		// A call without a token gets no notification: any that came would
		// carry no token, and the check above would catch it (notifications
		// may be handled after the result, so they are checked at the end).
		mu.Unlock()
		call(t, cs, "bash", map[string]any{"command": "sleep 1.5"})
		call(t, cs, "bash", map[string]any{"command": "true"})
		mu.Lock()
		for _, p := range got {
			if p.ProgressToken != "tok-"+tr.name {
				t.Errorf("a notification with token %v", p.ProgressToken)
			}
		}
	})
}

// Cancelling a call (notifications/cancelled) kills its whole process
// group; the session goes on.
func TestCancelKillsGroup(t *testing.T) {
	t.Parallel()
	forEachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := tr.connect(t, nil)
		m := marker("cancel")
		ctx, cancel := context.WithCancel(testContext(t))
		done := make(chan error, 1)
		go func() {
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash",
				Arguments: map[string]any{"command": "sleep 1000 & sleep 1000 # " + m}})
			done <- err
		}()
		pgid := waitForGroup(t, m, 3) // bash and two sleeps
		cancel()
		if err := <-done; err == nil {
			t.Error("the cancelled call returned no error")
		}
		waitGroupGone(t, pgid)
		if res := call(t, cs, "bash", map[string]any{"command": "echo still here"}); res.IsError {
			t.Errorf("after a cancel: %q", text(res))
		}
	})
}

// Calls run concurrently: check_pid answers while a long call is in flight.
func TestCheckPIDDuringLongCall(t *testing.T) {
	t.Parallel()
	forEachTransport(t, func(t *testing.T, tr transport) {
		cs, _ := tr.connect(t, nil)
		bg := call(t, cs, "bash", map[string]any{"command": "echo started; sleep 60", "run_in_background": true})
		pid := details(t, bg)["pid"]
		if pid == nil {
			t.Fatalf("background call gave no pid: %q", text(bg))
		}

		m := marker("long")
		ctx, cancel := context.WithCancel(testContext(t))
		defer cancel()
		longDone := make(chan struct{})
		go func() {
			cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "sleep 30; : " + m}})
			close(longDone)
		}()
		waitForGroup(t, m, 1)

		// The job may not have written yet (the call above can return
		// before bash runs echo): check_pid then waits for its output.
		args := map[string]any{"check_pid": pid}
		if !strings.Contains(text(bg), "started") {
			args["timeout"] = 10_000
		}
		check := call(t, cs, "bash", args)
		select {
		case <-longDone:
			t.Fatal("the long call ended before check_pid answered")
		default:
		}
		if check.IsError || details(t, check)["running"] != true || !strings.Contains(text(bg)+text(check), "started") {
			t.Errorf("check_pid: isError %v, %q", check.IsError, text(check))
		}
		cancel()
		<-longDone
		if kill := call(t, cs, "bash", map[string]any{"kill_pid": pid}); kill.IsError && !strings.Contains(text(kill), "SIG") {
			t.Errorf("kill_pid: %q", text(kill))
		}
	})
}

// Two HTTP sessions cannot check or kill each other's jobs; deleting a
// session kills its jobs and removes its spill directory.
func TestHTTPSessionsIsolated(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil)
	a := connectHTTP(t, s.url, nil, nil, false)
	b := connectHTTP(t, s.url, nil, nil, false)

	m := marker("iso")
	bg := call(t, a, "bash", map[string]any{"command": "seq 1 100000; sleep 60; : " + m, "run_in_background": true})
	pid := details(t, bg)["pid"]
	if pid == nil {
		t.Fatalf("no pid: %q", text(bg))
	}
	pgid := waitForGroup(t, m, 1)

	for _, op := range []string{"check_pid", "kill_pid"} {
		res := call(t, b, "bash", map[string]any{op: pid})
		if !res.IsError || !strings.Contains(text(res), fmt.Sprint(pid)) {
			t.Errorf("session B %s of A's job: isError %v, %q", op, res.IsError, text(res))
		}
	}
	res := call(t, a, "bash", map[string]any{"check_pid": pid})
	if res.IsError || details(t, res)["running"] != true {
		t.Fatalf("A's job after B tried to kill it: %q", text(res))
	}
	spillPath, _ := field(details(t, res), "stdout.full_output_path").(string)
	if spillPath == "" {
		// The job's output may still be arriving; the first check shows it.
		spillPath, _ = field(details(t, bg), "stdout.full_output_path").(string)
	}

	a.Close() // DELETE
	waitGroupGone(t, pgid)
	if spillPath != "" {
		waitFor(t, "the spill directory to go", func() bool { return !exists(filepath.Dir(spillPath)) })
	}
	if res := call(t, b, "bash", map[string]any{"command": "echo b"}); res.IsError {
		t.Errorf("session B after A ended: %q", text(res))
	}
}

// A session that is idle longer than --idle-timeout is ended: its jobs
// killed, its spill directory removed.
func TestHTTPIdleTimeout(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil, "--idle-timeout", "1s")
	cs := connectHTTP(t, s.url, nil, nil, true) // no standing GET stream: the client is silent
	m := marker("idle")
	bg := call(t, cs, "bash", map[string]any{"command": "sleep 60; : " + m, "run_in_background": true})
	res := call(t, cs, "bash", map[string]any{"command": "seq 1 100000"})
	spillPath, _ := field(details(t, res), "stdout.full_output_path").(string)
	if spillPath == "" {
		t.Fatal("no spill file")
	}
	pgid := waitForGroup(t, m, 1)
	waitGroupGone(t, pgid)
	waitFor(t, "the spill directory to go", func() bool { return !exists(filepath.Dir(spillPath)) })
	// The client may start a new session (the old one is 404); either way
	// the job is not there any more.
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"check_pid": details(t, bg)["pid"]}})
	if err == nil && !res.IsError {
		t.Errorf("check_pid of a job of an expired session: %q", text(res))
	}
}

func TestHTTPOrigin(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil)
	u, _ := url.Parse(s.url)
	port := ":" + u.Port()
	for _, tc := range []struct {
		origin, host string
		forbidden    bool
	}{
		{"https://evil.example", "", true},
		{"http://localhost.evil.example", "", true},
		{"null", "", true},
		{"", "evil.example", true}, // DNS rebinding: a foreign Host on a loopback address
		// Another port of localhost is another origin: say, a dev server
		// the agent started, or any local web page.
		{"http://localhost:5173", "", true},
		{"http://127.0.0.1", "", true},
		{"http://evil.localhost" + port, "", true},
		{"http://localhost" + port, "", false},
		{"HTTP://LOCALHOST" + port, "", false}, // the same origin (RFC 6454)
		{"http://127.0.0.1" + port, "", false},
		{"", "", false},
	} {
		status := postInitialize(t, s.url, tc.origin, tc.host, "")
		if (status == http.StatusForbidden) != tc.forbidden {
			t.Errorf("Origin %q Host %q: status %d, forbidden want %v", tc.origin, tc.host, status, tc.forbidden)
		}
	}
}

// postInitialize POSTs an initialize request and returns the status.
func postInitialize(t *testing.T, url, origin, host, auth string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequestWithContext(testContext(t), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if host != "" {
		req.Host = host
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func TestHTTPNonLoopbackNeedsToken(t *testing.T) {
	t.Parallel()
	// Without a token serve makes one; --no-token is for loopback only.
	cmd := exec.Command(bin, "serve", "--listen", "0.0.0.0:0", "--no-token")
	cmd.Env = serverEnv(t.TempDir(), "SPILLWAY_TOKEN=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("serve on 0.0.0.0 without a token exited 0")
		}
		if !strings.Contains(stderr.String(), "--token") || !strings.Contains(stderr.String(), "SPILLWAY_TOKEN") {
			t.Errorf("the error does not name the token: %q", stderr.String())
		}
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		t.Fatal("serve on 0.0.0.0 without a token started")
	}
}

func TestHTTPToken(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=s3cret"})
	if st := postInitialize(t, s.url, "", "", ""); st != http.StatusUnauthorized {
		t.Errorf("no token: status %d, want 401", st)
	}
	if st := postInitialize(t, s.url, "", "", "Bearer wrong"); st != http.StatusUnauthorized {
		t.Errorf("wrong token: status %d, want 401", st)
	}
	if st := postInitialize(t, s.url, "", "", "Bearer s3cret"); st != http.StatusOK {
		t.Errorf("right token: status %d, want 200", st)
	}
	cs := connectHTTP(t, s.url, nil, http.Header{"Authorization": {"Bearer s3cret"}}, false)
	if res := call(t, cs, "bash", map[string]any{"command": "echo ok"}); res.IsError {
		t.Errorf("with the token: %q", text(res))
	}

	// With a token, a non-loopback address is allowed.
	wide := startHTTPAt(t, "0.0.0.0:0", "SPILLWAY_TOKEN=s3cret")
	if st := postInitialize(t, wide, "", "", "Bearer s3cret"); st != http.StatusOK {
		t.Errorf("0.0.0.0 with the token: status %d", st)
	}
}

// startHTTPAt starts serve on a given address and returns a loopback URL.
func startHTTPAt(t *testing.T, listen string, env ...string) string {
	t.Helper()
	s := startHTTP(t, env, "--listen", listen) // the later --listen wins
	return strings.Replace(s.url, "0.0.0.0", "127.0.0.1", 1)
}

// rawStdio is `spillway mcp` driven line by line.
type rawStdio struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *lockedBuffer
	tmp    string
}

// startRawStdio starts spillway mcp with env added to its environment,
// and initializes its session.
func startRawStdio(t *testing.T, env ...string) *rawStdio {
	t.Helper()
	r := &rawStdio{tmp: t.TempDir(), stderr: &lockedBuffer{}}
	r.cmd = exec.Command(bin, "mcp")
	r.cmd.Env = serverEnv(r.tmp, env...)
	r.cmd.Stderr = r.stderr
	var err error
	if r.in, err = r.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r.out = bufio.NewReader(out)
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		r.in.Close()
		r.cmd.Process.Kill()
		r.cmd.Wait()
		checkStderr(t, "spillway mcp", r.stderr.String())
	})
	r.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	r.recv(t)
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

func (r *rawStdio) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// recv reads one message; everything on stdout must be JSON-RPC.
func (r *rawStdio) recv(t *testing.T) map[string]any {
	t.Helper()
	type line struct {
		s   string
		err error
	}
	c := make(chan line, 1)
	go func() { s, err := r.out.ReadString('\n'); c <- line{s, err} }()
	select {
	case l := <-c:
		if l.err != nil {
			t.Fatalf("reading stdout: %v", l.err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l.s), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("stdout carried something that is not JSON-RPC: %q", l.s)
		}
		return m
	case <-time.After(hangGuard):
		t.Fatal("no answer on stdout")
	}
	return nil
}

func TestStdioMalformedJSON(t *testing.T) {
	t.Parallel()
	r := startRawStdio(t)
	for _, tc := range []struct {
		line string
		code float64
		id   any
	}{
		{`{"jsonrpc":"2.0","id":1,"method":`, -32700, nil},
		{`not json at all`, -32700, nil},
		{`{"jsonrpc":"1.0","id":2,"method":"ping"}`, -32600, 2.0},
		{`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, -32600, nil},
	} {
		r.send(t, tc.line)
		m := r.recv(t)
		if code := field(m, "error.code"); code != tc.code || m["id"] != tc.id {
			t.Errorf("%s: answer %v, want error %v with id %v", tc.line, m, tc.code, tc.id)
		}
		if _, ok := m["id"]; !ok {
			t.Errorf("%s: the error has no id member (want null or the request's)", tc.line)
		}
		// The server keeps answering.
		r.send(t, `{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"bash","arguments":{"command":"echo alive"}}}`)
		if m := r.recv(t); m["id"] != "after" || !strings.Contains(fmt.Sprint(m["result"]), "alive") {
			t.Fatalf("after %s: %v", tc.line, m)
		}
	}
}

// The client going away (stdin closed) cancels its calls: the process
// group is killed and the server exits.
func TestStdioClientGone(t *testing.T) {
	t.Parallel()
	r := startRawStdio(t)
	m := marker("gone")
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep 1000 & sleep 1000 # `+m+`"}}}`)
	pgid := waitForGroup(t, m, 3)
	r.in.Close()
	waitGroupGone(t, pgid)
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(hangGuard):
		t.Fatal("spillway mcp did not exit when stdin closed")
	}
}

// SIGTERM kills the session's jobs and removes its spill directory.
func TestStdioSIGTERM(t *testing.T) {
	t.Parallel()
	r := startRawStdio(t)
	m := marker("term")
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bash","arguments":{"command":"seq 1 100000; sleep 1000; : `+m+`","run_in_background":true}}}`)
	r.recv(t)
	pgid := waitForGroup(t, m, 1)
	var spillDirs []string
	waitFor(t, "a spill directory", func() bool {
		spillDirs, _ = filepath.Glob(filepath.Join(r.tmp, "spillway-*-*"))
		return len(spillDirs) > 0
	})
	r.cmd.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(hangGuard):
		t.Fatal("spillway mcp did not exit on SIGTERM")
	}
	waitGroupGone(t, pgid)
	for _, d := range spillDirs {
		if exists(d) {
			t.Errorf("spill directory %s left behind", d)
		}
	}
}

// An HTTP client whose connection drops in the middle of a call does not
// cancel it: the command runs on, and the client that resumes the stream
// with Last-Event-ID gets the call's result from the event store.
func TestHTTPDisconnectIsNotCancel(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil)
	send := func(ctx context.Context, method, session, lastEvent, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, method, s.url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		if lastEvent != "" {
			req.Header.Set("Last-Event-ID", lastEvent)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	ctx := testContext(t)
	resp := send(ctx, http.MethodPost, "", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatal("no session id")
	}
	send(ctx, http.MethodPost, session, "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Body.Close()

	m := marker("httpdrop")
	callCtx, drop := context.WithCancel(ctx)
	resp = send(callCtx, http.MethodPost, session, "",
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","_meta":{"progressToken":"p"},"arguments":{"command":"echo begun; sleep 3; echo finished # `+m+`"}}}`)
	// Read events until one has an id (a progress notification), then drop
	// the connection without notifications/cancelled.
	var lastID string
	sc := bufio.NewScanner(resp.Body)
	for lastID == "" && sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
			lastID = id
		}
	}
	if lastID == "" {
		t.Fatal("the call's stream sent no event with an id to resume from")
	}
	pgid := waitForGroup(t, m, 1)
	drop()
	resp.Body.Close()
	time.Sleep(500 * time.Millisecond)
	if len(groupMembers(pgid)) == 0 {
		t.Fatal("the dropped connection killed the command")
	}
	// Resume the stream after the last event seen.
	resp = send(ctx, http.MethodGet, session, lastID, "")
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("resuming: %s", resp.Status)
	}
	sc = bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if ok && strings.Contains(data, `"id":2`) {
			if !strings.Contains(data, `stdout:\nbegun\nfinished\n`) {
				t.Fatalf("the resumed result: %s", data)
			}
			return
		}
	}
	t.Fatalf("the resumed stream ended without the call's result: %v", sc.Err())
}

// SIGTERM ends every HTTP session: calls in flight and background jobs
// killed, spill directories removed, then the server exits.
func TestHTTPSIGTERM(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil)
	cs := connectHTTP(t, s.url, nil, nil, false)
	mJob, mCall := marker("termjob"), marker("termcall")
	call(t, cs, "bash", map[string]any{"command": "seq 1 100000; sleep 1000; : " + mJob, "run_in_background": true})
	go cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "bash",
		Arguments: map[string]any{"command": "sleep 1000 & sleep 1000 # " + mCall}})
	jobGroup := waitForGroup(t, mJob, 1)
	callGroup := waitForGroup(t, mCall, 3)
	var spillDirs []string
	waitFor(t, "a spill directory", func() bool {
		spillDirs, _ = filepath.Glob(filepath.Join(s.tmp, "spillway-*-*"))
		return len(spillDirs) > 0
	})

	s.cmd.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("spillway serve exited with %v after SIGTERM", err)
		}
	case <-time.After(hangGuard):
		t.Fatal("spillway serve did not exit on SIGTERM")
	}
	waitGroupGone(t, jobGroup)
	waitGroupGone(t, callGroup)
	for _, d := range spillDirs {
		if exists(d) {
			t.Errorf("spill directory %s left behind", d)
		}
	}
}
