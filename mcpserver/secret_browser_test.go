package mcpserver_test

// Secret prompts answered by a person in a real browser
// (browser_driver_test.go).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A pageVisit is what the browser saw on a page and after its post.
type pageVisit struct {
	Status     int      `json:"status"`
	Asker      string   `json:"asker"`
	Command    string   `json:"command"`
	Cwd        string   `json:"cwd"`
	Prompt     string   `json:"prompt"`
	FieldType  string   `json:"fieldType"`
	PostStatus int      `json:"postStatus"`
	Done       string   `json:"done"`
	Cookies    int      `json:"cookies"`
	HTML       string   `json:"html"`
	Requests   []string `json:"requests"`
	Console    []string `json:"console"`
	Error      string   `json:"error"`
}

// visit opens url, types secret into the password field and presses
// Submit (action "answer") or Cancel.
func (b *browserDriver) visit(t *testing.T, url, action, secret string) pageVisit {
	t.Helper()
	return b.visitWaiting(t, url, action, secret, "")
}

// visitWaiting is visit that, the secret typed, waits until the file
// waitFor exists before it presses the button ("" does not wait).
func (b *browserDriver) visitWaiting(t *testing.T, url, action, secret, waitFor string) pageVisit {
	t.Helper()
	var v pageVisit
	b.roundTrip(t, map[string]any{"op": "answer", "url": url, "action": action, "secret": secret, "waitForFile": waitFor}, &v)
	if v.Error != "" {
		t.Fatalf("the browser on %s: %s", url, v.Error)
	}
	return v
}

// checkVisit checks what a person sees: the command, its directory, the
// prompt, a password field, nothing loaded from elsewhere, no cookie,
// and the secret not shown back.
func checkVisit(t *testing.T, v pageVisit, url, command, cwd, prompt string) {
	t.Helper()
	if v.Status != 200 || v.PostStatus != 200 {
		t.Errorf("page %d, post %d", v.Status, v.PostStatus)
	}
	if !strings.Contains(v.Command, command) || v.Cwd != cwd || v.Prompt != prompt {
		t.Errorf("the page shows command %q in %q at %q; want %q in %q at %q", v.Command, v.Cwd, v.Prompt, command, cwd, prompt)
	}
	if v.FieldType != "password" || v.Cookies != 0 || v.HTML != "clean" {
		t.Errorf("field %q, %d cookies, after the post the page is %s", v.FieldType, v.Cookies, v.HTML)
	}
	origin := url[:strings.Index(url, "/secret/")]
	for _, o := range v.Requests {
		if o != origin {
			t.Errorf("the page loaded something from %s", o)
		}
	}
}

// A secretServer is `spillway mcp` (debug log) and its client, with its
// stderr and TMPDIR (where its spill directory is) to search.
type secretServer struct {
	cs     *mcp.ClientSession
	stderr *lockedBuffer
	tmp    string
	// texts are every result the client read, text and details.
	texts []string
	// urls are the pages the server showed the person through URL-mode
	// elicitation, which the client declines: the page stays open and
	// the test's browser, the person, answers it. The model never gets
	// an address.
	urls chan string
}

// page returns the address of the page the server last showed the
// person.
func (s *secretServer) page(t *testing.T) string {
	t.Helper()
	select {
	case u := <-s.urls:
		return u
	case <-time.After(hangGuard):
		t.Fatal("no page was shown to the person (URL elicitation)")
		return ""
	}
}

// personSession speaks the protocol version that lets a server send
// elicitation/create while it serves a call: on 2026-07-28 it may not
// (multi round-trip requests), and the page is not shown.
var personSession = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}

// personClient is a client that declares URL-mode elicitation and sends
// each page it is shown to urls, declining to open it there.
func personClient(urls chan string) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Mode == "url" {
				urls <- req.Params.URL
			}
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	}
}

func startSecretServer(t *testing.T, tmp string, args ...string) *secretServer {
	t.Helper()
	return startSecretServerCmd(t, tmp, exec.Command(bin, append([]string{"mcp", "--log-level", "debug"}, args...)...))
}

// startSecretServerCmd starts the server cmd runs (its environment is
// set here) and connects to it.
func startSecretServerCmd(t *testing.T, tmp string, cmd *exec.Cmd) *secretServer {
	t.Helper()
	cmd.Env = serverEnv(tmp)
	s := &secretServer{stderr: &lockedBuffer{}, tmp: tmp, urls: make(chan string, 16)}
	cmd.Stderr = s.stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "secret-test", Version: "1"}, personClient(s.urls)).
		Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, personSession)
	if err != nil {
		t.Fatalf("connecting to spillway mcp: %v\nstderr:\n%s", err, s.stderr)
	}
	s.cs = cs
	t.Cleanup(func() {
		cs.Close()
		checkStderr(t, "spillway mcp", s.stderr.String())
	})
	return s
}

// call makes a call and keeps its text and details for the search.
func (s *secretServer) call(t *testing.T, name string, args map[string]any) (string, map[string]any) {
	t.Helper()
	res := call(t, s.cs, name, args)
	b, _ := json.Marshal(res)
	s.texts = append(s.texts, text(res), string(b))
	return text(res), details(t, res)
}

// noTrace fails if secret is anywhere the session kept or said: the
// results, the history, the spill directory, the server's stderr.
func (s *secretServer) noTrace(t *testing.T, secret string) {
	t.Helper()
	s.call(t, "history", map[string]any{})
	s.call(t, "jobs", map[string]any{})
	for i, txt := range s.texts {
		if strings.Contains(txt, secret) {
			t.Errorf("result %d holds the secret: %s", i, txt)
		}
	}
	filepath.WalkDir(s.tmp, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), secret) {
			t.Errorf("%s holds the secret", path)
		}
		return nil
	})
	if strings.Contains(s.stderr.String(), secret) {
		t.Errorf("the server's stderr holds the secret")
	}
}

// answerThroughBrowser runs command on a terminal, expects it to wait
// for a secret at prompt, answers the page in the browser with secret,
// and returns the text of the look that follows. cwd is the command's
// directory.
func answerThroughBrowser(t *testing.T, s *secretServer, command, cwd, prompt, secret string) string {
	t.Helper()
	after, _, _ := answerThroughBrowserAsked(t, s, command, cwd, prompt, secret)
	return after
}

// answerThroughBrowserAsked is answerThroughBrowser that also returns
// details.secret of the prompt and what the page showed.
func answerThroughBrowserAsked(t *testing.T, s *secretServer, command, cwd, prompt, secret string) (string, map[string]any, pageVisit) {
	t.Helper()
	b := startBrowserDriver(t)
	txt, d := s.call(t, "bash", map[string]any{"command": command, "cwd": cwd, "tty": true, "timeout": 30_000})
	page := s.page(t)
	if d["waiting_for_secret"] != true || d["waiting_for_input"] == true || field(d, "secret.prompt") != prompt {
		t.Fatalf("%s: details %v\n%s", command, d, txt)
	}
	if !strings.Contains(txt, "[waiting for a secret: ask the person to run spillway console]\n") || !strings.Contains(txt, "never ask them for the secret") {
		t.Errorf("the result does not say who answers:\n%s", txt)
	}
	next, _ := d["next"].([]any)
	if len(next) != 1 || field(next[0].(map[string]any), "check_pid") == nil {
		t.Errorf("details.next: %v", next)
	}
	pid := d["pid"]
	// The model may not type it.
	res := call(t, s.cs, "write_stdin", map[string]any{"pid": pid, "input": "guess\n"})
	s.texts = append(s.texts, text(res))
	if !res.IsError || !strings.Contains(text(res), "spillway console") || !strings.Contains(text(res), "allow_model_secret") {
		t.Errorf("write_stdin to a secret prompt: %s", text(res))
	}
	jobs, _ := s.call(t, "jobs", map[string]any{})
	if !strings.Contains(jobs, "waiting for secret") || !strings.Contains(jobs, "spillway console") {
		t.Errorf("jobs:\n%s", jobs)
	}
	v := b.visit(t, page, "answer", secret)
	checkVisit(t, v, page, strings.Fields(command)[0], cwd, prompt)
	after := lookUntil(t, func() string {
		txt, _ := s.call(t, "bash", map[string]any{"check_pid": pid, "timeout": 20_000})
		return txt
	}, "exit code")
	if !strings.HasPrefix(after, "[the password prompt was answered on the page]\n") {
		t.Errorf("after the answer the model reads:\n%s", after)
	}
	// The page's address is nowhere the model reads: results, jobs,
	// history, spill files, the server's log.
	s.noTrace(t, page[strings.Index(page, "/secret/"):])
	asked, _ := d["secret"].(map[string]any)
	return after, asked, v
}

// received is what the test programs print: the secret's length and
// SHA-256.
func received(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return fmt.Sprintf("%d %s", len(secret), hex.EncodeToString(sum[:]))
}

// The secret of the tests: spaces and the characters a form encodes.
const browserSecret = "Tr0ub4dor &3 horse+battery=%20staple!"

func TestSecretPromptPythonGetpass(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	tmp, dir := t.TempDir(), t.TempDir()
	s := startSecretServer(t, tmp)
	cmd := `python3 -c 'import getpass, hashlib; s = getpass.getpass("Password: "); print(len(s), hashlib.sha256(s.encode()).hexdigest())'`
	after := answerThroughBrowser(t, s, cmd, dir, "Password:", browserSecret)
	if !strings.Contains(after, received(browserSecret)) {
		t.Errorf("getpass did not receive the secret typed:\n%s", after)
	}
	s.noTrace(t, browserSecret)
}

func TestSecretPromptBashReadS(t *testing.T) {
	t.Parallel()
	tmp, dir := t.TempDir(), t.TempDir()
	s := startSecretServer(t, tmp)
	cmd := `read -r -s -p 'Secret: ' s; echo; printf '%s' "$s" | sha256sum | { read h _; echo "${#s} $h"; }`
	after := answerThroughBrowser(t, s, cmd, dir, "Secret:", browserSecret)
	if !strings.Contains(after, received(browserSecret)) {
		t.Errorf("read -s did not receive the secret typed:\n%s", after)
	}
	s.noTrace(t, browserSecret)
}

// Cancel on the page interrupts the command, and the model reads so.
func TestSecretPromptCancelled(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	s := startSecretServer(t, tmp)
	b := startBrowserDriver(t)
	s.call(t, "bash", map[string]any{"command": `read -s -p 'Secret: ' s; echo "got ${#s}"`, "tty": true, "timeout": 30_000})
	page := s.page(t)
	_, d := s.call(t, "jobs", map[string]any{})
	d = d["jobs"].([]any)[0].(map[string]any)
	v := b.visit(t, page, "cancel", "half-typed")
	if v.PostStatus != 200 || !strings.Contains(v.Done, "Cancelled") {
		t.Errorf("cancel: %+v", v)
	}
	after := lookUntil(t, func() string {
		txt, _ := s.call(t, "bash", map[string]any{"check_pid": d["pid"], "timeout": 20_000})
		return txt
	}, "exit code")
	if !strings.HasPrefix(after, "[cancelled on the page]\n") || strings.Contains(after, "got ") || !strings.Contains(after, "exit code") {
		t.Errorf("after the cancel the model reads:\n%s", after)
	}
	s.noTrace(t, "half-typed")
}

// lookUntil looks (check_pid) until the text holds want, at most five
// times: check_pid returns at the first new output, and the program may
// write more after it. It returns the texts joined.
func lookUntil(t *testing.T, look func() string, want string) string {
	t.Helper()
	var all strings.Builder
	for range 5 {
		all.WriteString(look())
		if strings.Contains(all.String(), want) {
			break
		}
		all.WriteString("\n")
	}
	return all.String()
}
