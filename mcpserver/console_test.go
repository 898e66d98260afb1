//go:build linux

package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/spillway-dev/spillway/internal/console"
)

// A consoleServer is a spillway mcp whose console the test reaches.
type consoleServer struct {
	cs  *mcp.ClientSession
	pid int
	dir string // the console's socket directory
}

// startConsoleServer starts spillway mcp with args, its client speaking
// protocol (the SDK's latest when empty), in a runtime directory of its
// own.
func startConsoleServer(t *testing.T, opts *mcp.ClientOptions, protocol string, args ...string) *consoleServer {
	t.Helper()
	tmp := t.TempDir()
	// A socket's path is short (108 bytes): not under the test's
	// directory.
	run, err := os.MkdirTemp("/tmp", "sc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	cmd := exec.Command(bin, append(args, "mcp")...)
	cmd.Env = serverEnv(tmp, "XDG_RUNTIME_DIR="+run)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	var so *mcp.ClientSessionOptions
	if protocol != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: protocol}
	}
	var cs *mcp.ClientSession
	cs, err = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, so)
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("server's stderr:\n%s", stderr)
		}
	})
	s := &consoleServer{cs: cs, pid: cmd.Process.Pid, dir: filepath.Join(run, "spillway", "console")}
	waitFor(t, "the server's console socket", func() bool { return s.address() != "" })
	return s
}

// address is the server's console address as curl takes it: the
// abstract name PID.addr holds (Linux), or the socket PID.sock.
func (s *consoleServer) address() string {
	if b, err := os.ReadFile(filepath.Join(s.dir, fmt.Sprint(s.pid)+".addr")); err == nil {
		return "--abstract-unix-socket " + strings.TrimPrefix(string(b), "@")
	}
	if sock := filepath.Join(s.dir, fmt.Sprint(s.pid)+".sock"); exists(sock) {
		return "--unix-socket " + sock
	}
	return ""
}

// A pageUser is what the tests do in the person's place, over HTTP.
type pageUser struct {
	t      *testing.T
	origin string
	login  string
	csrf   string
}

// openConsole starts a console of dir in this process and logs in with
// its link.
func openConsole(t *testing.T, dir string) (*pageUser, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c := console.NewConsole(dir, "", nil)
	link, err := c.Listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := &pageUser{t: t, origin: c.Origin()}
	if err := b.logIn(link); err != nil {
		t.Fatal(err)
	}
	return b, link
}

// logIn trades the link's code for a login, as the page's script does.
func (b *pageUser) logIn(link string) error {
	u, err := url.Parse(link)
	if err != nil {
		return err
	}
	req, _ := http.NewRequest(http.MethodPost, b.origin+"/api/login", nil)
	req.Header.Set("X-Spillway-Link", u.Fragment)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", resp.Status, body)
	}
	var l struct{ Login, Csrf string }
	if err := json.Unmarshal(body, &l); err != nil {
		return err
	}
	b.login, b.csrf = l.Login, l.Csrf
	return nil
}

func (b *pageUser) do(method, path string, form url.Values) (int, string) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, b.origin+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if b.login != "" {
		req.Header.Set("X-Spillway-Login", b.login)
		req.Header.Set("X-Spillway-Csrf", b.csrf)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

var itemRE = regexp.MustCompile(`data-item="([0-9a-f]+)"`)

// pendingItem waits until the page shows a question holding command,
// and returns its id.
func (b *pageUser) pendingItem(command string) string {
	b.t.Helper()
	var id string
	waitFor(b.t, "the question on the page", func() bool {
		_, page := b.do(http.MethodGet, "/api/view", nil)
		if m := itemRE.FindStringSubmatch(page); m != nil && strings.Contains(page, command) {
			id = m[1]
			return true
		}
		return false
	})
	return id
}

func (b *pageUser) answer(pid int, id, choice string) (int, string) {
	return b.do(http.MethodPost, "/api/answer", url.Values{"server": {fmt.Sprint(pid)}, "id": {id}, "choice": {choice}, "csrf": {b.csrf}})
}

// callAsync calls a tool in the background.
func callAsync(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) <-chan *mcp.CallToolResult {
	ch := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Errorf("%s %v: %v", name, args, err)
		}
		ch <- res
	}()
	return ch
}

// A client without elicitation: the question waits on the console, and
// the person's answer there decides. Allowed, the command runs; denied,
// it does not.
func TestConsoleApprovesWithoutElicitation(t *testing.T) {
	t.Parallel()
	for _, choice := range []string{"allow once", "deny"} {
		t.Run(choice, func(t *testing.T) {
			t.Parallel()
			s := startConsoleServer(t, nil, "", "--config", rulesConfig(t))
			b, _ := openConsole(t, s.dir)
			dir := filepath.Join(t.TempDir(), marker("console"))
			done := callAsync(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir, "timeout": 50000})
			id := b.pendingItem("mkdir " + dir)
			if exists(dir) {
				t.Fatal("the command ran before the answer")
			}
			if code, body := b.answer(s.pid, id, choice); code != http.StatusNoContent {
				t.Fatalf("answer: %d %s", code, body)
			}
			res := <-done
			if exists(dir) != (choice != "deny") {
				t.Errorf("ran %v after %q:\n%s", exists(dir), choice, text(res))
			}
			// The item left the page; answering again is a late answer.
			if code, _ := b.answer(s.pid, id, choice); code != http.StatusGone {
				t.Errorf("a second answer: %d, want 410", code)
			}
		})
	}
}

// The call's timeout passes first: nothing runs, the model is told to
// ask the person, the item stays; approved there, the next identical
// call runs without asking, and the one after asks again.
func TestConsoleApprovalAppliesOnceToTheNextCall(t *testing.T) {
	t.Parallel()
	s := startConsoleServer(t, nil, "", "--config", rulesConfig(t))
	b, _ := openConsole(t, s.dir)
	dir := filepath.Join(t.TempDir(), marker("later"))
	args := map[string]any{"command": "mkdir " + dir, "timeout": 300}
	res := call(t, s.cs, "bash", args)
	want := "[waiting for approval: nothing ran; the person can approve it in spillway console, then run the same command again]"
	if got := text(res); !res.IsError || !strings.Contains(got, want) || exists(dir) {
		t.Fatalf("result (ran %v):\n%s", exists(dir), got)
	}
	id := b.pendingItem("mkdir " + dir)
	if code, body := b.answer(s.pid, id, "allow once"); code != http.StatusNoContent {
		t.Fatalf("answer: %d %s", code, body)
	}
	// Another command (another cwd) is not the one approved.
	other := map[string]any{"command": "mkdir " + dir, "timeout": 300, "cwd": t.TempDir()}
	if res := call(t, s.cs, "bash", other); !strings.Contains(text(res), want) || exists(dir) {
		t.Fatalf("a call in another cwd used the approval:\n%s", text(res))
	}
	if res := call(t, s.cs, "bash", args); res.IsError || !exists(dir) {
		t.Fatalf("the approved call did not run:\n%s", text(res))
	}
	os.Remove(dir)
	if res := call(t, s.cs, "bash", args); !strings.Contains(text(res), want) || exists(dir) {
		t.Fatalf("the approval applied twice:\n%s", text(res))
	}
}

// With a client that shows forms (of a protocol where the server sends
// the request), both are asked; the page's answer withdraws the form
// (its request is cancelled), and the form's answer takes the item off
// the page.
func TestConsoleAndFormFirstAnswerWins(t *testing.T) {
	t.Parallel()
	t.Run("console first", func(t *testing.T) {
		t.Parallel()
		var withdrawn atomic.Bool
		opts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			<-ctx.Done() // the person never answers the form
			withdrawn.Store(true)
			return nil, ctx.Err()
		}}
		s := startConsoleServer(t, opts, "2025-11-25", "--config", rulesConfig(t))
		b, _ := openConsole(t, s.dir)
		dir := filepath.Join(t.TempDir(), marker("race"))
		done := callAsync(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir})
		id := b.pendingItem("mkdir " + dir)
		if code, body := b.answer(s.pid, id, "allow once"); code != http.StatusNoContent {
			t.Fatalf("answer: %d %s", code, body)
		}
		res := <-done
		if !exists(dir) {
			t.Fatalf("did not run:\n%s", text(res))
		}
		waitFor(t, "the form to be withdrawn", withdrawn.Load)
	})
	t.Run("form first", func(t *testing.T) {
		t.Parallel()
		release := make(chan struct{})
		var once sync.Once
		// A failure before the release must not leave the form waiting
		// for ever: the session's end waits on it.
		t.Cleanup(func() { once.Do(func() { close(release) }) })
		opts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "allow once"}}, nil
		}}
		s := startConsoleServer(t, opts, "2025-11-25", "--config", rulesConfig(t))
		b, _ := openConsole(t, s.dir)
		dir := filepath.Join(t.TempDir(), marker("race"))
		done := callAsync(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir})
		id := b.pendingItem("mkdir " + dir)
		once.Do(func() { close(release) })
		res := <-done
		if !exists(dir) {
			t.Fatalf("did not run:\n%s", text(res))
		}
		if _, page := b.do(http.MethodGet, "/api/view", nil); strings.Contains(page, id) {
			t.Error("the item is still on the page")
		}
		if code, _ := b.answer(s.pid, id, "deny"); code != http.StatusGone {
			t.Errorf("a late answer on the page: %d, want 410", code)
		}
	})
}

// The login: the link works once; without the login nothing is shown or
// done; another origin, another Host, or an action without the page's
// token are refused.
func TestConsoleLogin(t *testing.T) {
	t.Parallel()
	s := startConsoleServer(t, nil, "", "--config", rulesConfig(t))
	b, link := openConsole(t, s.dir)
	again := &pageUser{t: t, origin: b.origin}
	if err := again.logIn(link); err == nil || !strings.Contains(err.Error(), "already used") {
		t.Errorf("the link worked twice: %v", err)
	}
	anon := &pageUser{t: t, origin: b.origin}
	if code, body := anon.do(http.MethodGet, "/api/view", nil); code != http.StatusUnauthorized || strings.Contains(body, "session") {
		t.Errorf("without the login: %d %s", code, body)
	}
	if code, _ := b.do(http.MethodGet, "/api/view", nil); code != http.StatusOK {
		t.Errorf("with the login: %d", code)
	}
	try := func(name string, edit func(*http.Request), want int) {
		req, _ := http.NewRequest(http.MethodPost, b.origin+"/api/answer", strings.NewReader("id=x&choice=deny&server=1"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Spillway-Login", b.login)
		req.Header.Set("X-Spillway-Csrf", b.csrf)
		edit(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("%s: %d, want %d", name, resp.StatusCode, want)
		}
	}
	try("another origin", func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:1") }, http.StatusForbidden)
	try("another site", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }, http.StatusForbidden)
	try("another host", func(r *http.Request) { r.Host = "localhost" + strings.TrimPrefix(b.origin, "http://127.0.0.1") }, http.StatusMisdirectedRequest)
	try("no action token", func(r *http.Request) { r.Header.Del("X-Spillway-Csrf") }, http.StatusForbidden)
	try("a cookie alone", func(r *http.Request) {
		r.Header.Del("X-Spillway-Login")
		r.AddCookie(&http.Cookie{Name: "login", Value: b.login})
	}, http.StatusUnauthorized)
}

// A command the server runs cannot talk to its console socket: the
// socket refuses a process that descends from a spillway server.
func TestConsoleSocketRefusesCommands(t *testing.T) {
	t.Parallel()
	s := startConsoleServer(t, nil, "")
	res := call(t, s.cs, "bash", map[string]any{"command": "curl -sS --max-time 5 " + s.address() + " http://x/v1/state; echo \"curl: $?\""})
	got := text(res)
	if strings.Contains(got, `"sessions"`) || !strings.Contains(got, "curl: ") || strings.Contains(got, "curl: 0") {
		t.Errorf("a command reached the console:\n%s", got)
	}
	// The test process, not a descendant, is answered.
	b, _ := openConsole(t, s.dir)
	if _, page := b.do(http.MethodGet, "/api/view", nil); !strings.Contains(page, fmt.Sprintf("pid %d", s.pid)) {
		t.Errorf("the console does not show the server:\n%s", page)
	}
}

var (
	secretRE  = regexp.MustCompile(`data-secret="([^"]+)"`)
	sessionRE = regexp.MustCompile(`data-session="([^"]+)"`)
)

// A secret prompt is answered on the console: the program gets the
// answer, and no result the model reads holds it.
func TestConsoleAnswersASecretPrompt(t *testing.T) {
	t.Parallel()
	s := startConsoleServer(t, nil, "")
	b, _ := openConsole(t, s.dir)
	loot := filepath.Join(t.TempDir(), "got")
	const secret = "correct horse% battery+staple"
	res := call(t, s.cs, "bash", map[string]any{"command": "read -s -p 'Password: ' p; printf %s \"$p\" > " + loot + "; echo done; sleep 1", "tty": true, "timeout": 20000})
	pid := int(details(t, res)["pid"].(float64))
	var page, id, sess string
	waitFor(t, "the prompt on the page", func() bool {
		_, page = b.do(http.MethodGet, "/api/view", nil)
		m, n := secretRE.FindStringSubmatch(page), sessionRE.FindStringSubmatch(page)
		if m != nil && n != nil {
			id, sess = m[1], n[1]
			return true
		}
		return false
	})
	if !strings.Contains(page, "Password:") || !strings.Contains(page, "Not verified") {
		t.Errorf("the page does not show the prompt and who asks:\n%s", page)
	}
	form := url.Values{"server": {fmt.Sprint(s.pid)}, "session": {sess}, "id": {id}, "action": {"answer"}, "secret": {secret}, "csrf": {b.csrf}}
	if code, body := b.do(http.MethodPost, "/api/secret", form); code != http.StatusNoContent {
		t.Fatalf("answer: %d %s", code, body)
	}
	res = call(t, s.cs, "bash", map[string]any{"check_pid": pid, "timeout": 10000})
	got, _ := os.ReadFile(loot)
	if string(got) != secret {
		t.Errorf("the program got %q", got)
	}
	if strings.Contains(text(res), "horse") || !strings.Contains(text(res), "answered") {
		t.Errorf("the model's look:\n%s", text(res))
	}
	if code, _ := b.do(http.MethodPost, "/api/secret", form); code != http.StatusGone {
		t.Errorf("a second answer: %d, want 410", code)
	}
}

// A background job's output moves on the page while it runs.
func TestConsoleShowsJobOutputLive(t *testing.T) {
	t.Parallel()
	s := startConsoleServer(t, nil, "")
	b, _ := openConsole(t, s.dir)
	fifo := filepath.Join(t.TempDir(), "go")
	res := call(t, s.cs, "bash", map[string]any{"command": "mkfifo " + fifo + "; echo first-$((0+1)); read x < " + fifo + "; echo second-$((1+1)); sleep 30", "timeout": 300})
	if details(t, res)["pid"] == nil {
		t.Fatalf("not in the background:\n%s", text(res))
	}
	shows := func(s string) func() bool {
		return func() bool { _, page := b.do(http.MethodGet, "/api/view", nil); return strings.Contains(page, s) }
	}
	waitFor(t, "the first line on the page", shows("first-1"))
	if _, page := b.do(http.MethodGet, "/api/view", nil); strings.Contains(page, "second-2") {
		t.Fatal("the second line before it was printed")
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the second line on the page", shows("second-2"))
}

// A client that declares form elicitation and declines every form at
// once, unseen, as codex exec does: the first answer wins, so an ask is
// a refusal. With [rules] no_client_forms = true the client is never
// sent the form: the question waits on the page as for a client without
// forms, and the person's approval there runs the command. Without the
// key, the decline refuses it and nothing runs.
func TestConsoleNoClientForms(t *testing.T) {
	t.Parallel()
	for _, set := range []bool{true, false} {
		t.Run(fmt.Sprintf("no_client_forms=%v", set), func(t *testing.T) {
			t.Parallel()
			var forms atomic.Int32
			opts := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				forms.Add(1)
				return &mcp.ElicitResult{Action: "decline"}, nil
			}}
			doc := "[rules]\nask = [\"mkdir *\"]\n"
			if set {
				doc += "no_client_forms = true\n"
			}
			cfg := filepath.Join(t.TempDir(), "rules.toml")
			if err := os.WriteFile(cfg, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			s := startConsoleServer(t, opts, "2025-11-25", "--config", cfg)
			dir := filepath.Join(t.TempDir(), marker("forms"))
			if !set {
				res := call(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir})
				if forms.Load() != 1 || exists(dir) || !strings.Contains(text(res), "[the user denied the command: nothing ran]") {
					t.Fatalf("forms sent %d, ran %v:\n%s", forms.Load(), exists(dir), text(res))
				}
				return
			}
			b, _ := openConsole(t, s.dir)
			done := callAsync(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir, "timeout": 50000})
			id := b.pendingItem("mkdir " + dir)
			if code, body := b.answer(s.pid, id, "allow once"); code != http.StatusNoContent {
				t.Fatalf("answer: %d %s", code, body)
			}
			res := <-done
			if !exists(dir) || res.IsError {
				t.Errorf("the approved command did not run:\n%s", text(res))
			}
			if n := forms.Load(); n != 0 {
				t.Errorf("the client was sent %d forms", n)
			}
		})
	}
}
