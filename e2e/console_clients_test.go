package e2e

import (
	"bufio"
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
	"testing"
	"time"
)

// An ask rule in a client that has no form elicitation (Gemini CLI
// declares none), or one whose forms spillway is told not to use (codex
// exec declines every form unseen): the command waits on spillway
// console, the person approves it there, and it runs.

// askConfig is the person's spillway config: everything allowed but
// touch, which they approve first.
const askConfig = "[rules]\ndefault = \"allow\"\nask = [\"touch *\"]\n"

// noFormsConfig is askConfig for a client that declines every form:
// spillway sends it none, and the question waits on the page.
const noFormsConfig = askConfig + "no_client_forms = true\n"

// askCommand needs the person's approval; its output and the file it
// makes show that it ran.
const (
	askFile    = "approved-by-the-person"
	askOutput  = "ran after the approval"
	askCommand = "touch " + askFile + " && echo '" + askOutput + "'"
)

// A console is the person's spillway console, run as they run it, with
// the link it printed and the login the page holds.
type console struct {
	origin, login, csrf string
	out                 *lockedLines
}

// startConsole runs `spillway console --no-open` for the servers whose
// sockets are under run, and logs in with its one-time link as the
// page's script does.
func startConsole(t *testing.T, w workspace, run string) *console {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, w.spillway, "--config", "/dev/null", "console", "--no-open")
	cmd.Env = append(cleanEnv(t), "XDG_RUNTIME_DIR="+run, "BROWSER=")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	out := &lockedLines{}
	links := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			out.add(sc.Text())
			if _, link, ok := strings.Cut(sc.Text(), "Open this link (it works once): "); ok {
				links <- link
			}
		}
		close(links)
	}()
	var link string
	select {
	case l, ok := <-links:
		if !ok {
			t.Fatalf("spillway console printed no link:\n%s", out)
		}
		link = l
	case <-time.After(time.Minute):
		t.Fatalf("spillway console printed no link in a minute:\n%s", out)
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	c := &console{origin: u.Scheme + "://" + u.Host, out: out}
	req, _ := http.NewRequest(http.MethodPost, c.origin+"/api/login", nil)
	req.Header.Set("X-Spillway-Link", u.Fragment)
	var l struct{ Login, Csrf string }
	if code, body := c.send(req, &l); code != http.StatusOK {
		t.Fatalf("logging in with the link: %d %s", code, body)
	}
	c.login, c.csrf = l.Login, l.Csrf
	return c
}

// send makes a request of the page with the login, and decodes a JSON
// answer into v when v is set.
func (c *console) send(req *http.Request, v any) (int, string) {
	if c.login != "" {
		req.Header.Set("X-Spillway-Login", c.login)
		req.Header.Set("X-Spillway-Csrf", c.csrf)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		// The test stopped waiting (the client ended first) or the
		// console is gone: the caller says which.
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if v != nil && resp.StatusCode == http.StatusOK {
		json.Unmarshal(b, v)
	}
	return resp.StatusCode, string(b)
}

var (
	itemRE   = regexp.MustCompile(`data-item="([0-9a-f]+)"`)
	serverRE = regexp.MustCompile(`name="server" value="(\d+)"`)
)

// approve waits until the page shows a question holding command, answers
// it "allow once" as the person's click does, and returns the page as it
// showed the question. It gives up when ctx ends.
func (c *console) approve(ctx context.Context, command string) (string, error) {
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.origin+"/api/view", nil)
		_, page := c.send(req, nil)
		item, server := itemRE.FindStringSubmatch(page), serverRE.FindStringSubmatch(page)
		if item != nil && server != nil && strings.Contains(page, htmlEscape(command)) {
			form := url.Values{"server": {server[1]}, "id": {item[1]}, "choice": {"allow once"}, "csrf": {c.csrf}}
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.origin+"/api/answer", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if code, body := c.send(req, nil); code != http.StatusNoContent {
				return page, fmt.Errorf("the answer was refused: %d %s", code, body)
			}
			return page, nil
		}
		// The page itself follows events; polling its view every
		// 100 ms stands in for that.
		select {
		case <-ctx.Done():
			return page, fmt.Errorf("the question never showed on the page: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&#34;").Replace(s)
}

// clientDeclined is what the model reads when the client answered
// spillway's form with decline before the person answered on the page.
const clientDeclined = "[the user denied the command: nothing ran]"

// testConsoleApproval: the stand-in model runs askCommand through the
// client; the person approves it in spillway console; the file is made
// and the model reads the command's output. It returns false when the
// client's own elicitation answered decline first, which only a client
// that declares form elicitation can do; then nothing may have run.
func testConsoleApproval(t *testing.T, c client, config string, withServerEnv func(c client, env map[string]string) client) (approved bool) {
	clientBin(t, c)
	slowClientTest(t)
	w := newWorkspace(t)
	// A socket's path is short (108 bytes): not under the test's
	// directory.
	run, err := os.MkdirTemp("/tmp", "spw-e2e")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	con := startConsole(t, w, run)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	type approval struct {
		page string
		err  error
	}
	answered := make(chan approval, 1)
	go func() {
		page, err := con.approve(ctx, askCommand)
		answered <- approval{page, err}
	}()
	got := drive(t, withServerEnv(c, map[string]string{"XDG_RUNTIME_DIR": run, "SPILLWAY_CONFIG": cfg}), w,
		[]call{{"bash", map[string]any{"command": askCommand}}})
	cancel()
	a := <-answered
	text := got[0].Text()
	_, statErr := os.Stat(filepath.Join(w.dir, askFile))
	if a.err != nil {
		if strings.Contains(text, clientDeclined) {
			if statErr == nil {
				t.Errorf("%s declined the command, and it ran anyway", c.name)
			}
			t.Logf("%s answered spillway's form with decline before the page could: nothing ran; the model read:\n%s", c.name, text)
			return false
		}
		t.Fatalf("the person could not approve the command: %v\nthe page:\n%s\nthe console printed:\n%s\nthe model read:\n%s",
			a.err, a.page, con.out, text)
	}
	t.Logf("%s: the page showed:\n%s\nthe model read:\n%s", c.name, a.page, text)
	if statErr != nil {
		t.Errorf("the approved command did not run: %v", statErr)
	}
	if !strings.Contains(text, askOutput) {
		t.Errorf("the model did not read the command's output %q:\n%s", askOutput, text)
	}
	if strings.Contains(text, "waiting for approval") {
		t.Errorf("the call stopped waiting before the approval:\n%s", text)
	}
	return true
}

// lockedLines collects a process's lines for a failure message.
type lockedLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *lockedLines) add(s string) { l.mu.Lock(); l.lines = append(l.lines, s); l.mu.Unlock() }

func (l *lockedLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// geminiServerEnv is Gemini CLI with env given to spillway's server in
// its settings' entry.
func geminiServerEnv(c client, env map[string]string) client {
	run := c.run
	c.run = func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		cmd := run(ctx, t, bin, api, w)
		path := filepath.Join(envValue(cmd.Env, "HOME"), ".gemini", "settings.json")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var settings map[string]any
		if err := json.Unmarshal(b, &settings); err != nil {
			t.Fatal(err)
		}
		settings["mcpServers"].(map[string]any)["spillway"].(map[string]any)["env"] = env
		writeJSON(t, path, settings)
		return cmd
	}
	return c
}

// codexServerEnv is Codex with env given to spillway's server in its
// config.toml.
func codexServerEnv(c client, env map[string]string) client {
	extra := "[mcp_servers.spillway.env]\n"
	for k, v := range env {
		extra += fmt.Sprintf("%s = %q\n", k, v)
	}
	c.run = func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		return codexCommandWith(ctx, t, bin, api, "gpt-5", w.spillway, extra)
	}
	return c
}

// Gemini CLI 0.61.0 declares no elicitation: the question can only wait
// on the page.
func TestGeminiCLIConsoleApproval(t *testing.T) {
	if !testConsoleApproval(t, gemini, askConfig, geminiServerEnv) {
		t.Error("Gemini CLI declined spillway's form, which it should never have been sent")
	}
}

// Codex 0.169.0 declares form and URL elicitation, and `codex exec`
// answers every form with decline, at once. With [rules] no_client_forms
// = true spillway sends it no form: the question waits on the page, the
// person approves it, the command runs and the model reads its output.
func TestCodexConsoleApproval(t *testing.T) {
	if !testConsoleApproval(t, codex, noFormsConfig, codexServerEnv) {
		t.Error("Codex declined the command: spillway sent it a form under no_client_forms = true")
	}
}

// Without the key, codex exec's decline is the first answer: the model
// reads the refusal and nothing runs (no one answers on the page).
func TestCodexConsoleFormDeclineRunsNothing(t *testing.T) {
	clientBin(t, codex)
	slowClientTest(t)
	w := newWorkspace(t)
	run, err := os.MkdirTemp("/tmp", "spw-e2e")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte(askConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	got := drive(t, codexServerEnv(codex, map[string]string{"XDG_RUNTIME_DIR": run, "SPILLWAY_CONFIG": cfg}), w,
		[]call{{"bash", map[string]any{"command": askCommand}}})
	text := got[0].Text()
	t.Logf("the model read:\n%s", text)
	if !strings.Contains(text, clientDeclined) {
		t.Errorf("the model did not read the refusal %q", clientDeclined)
	}
	if _, err := os.Stat(filepath.Join(w.dir, askFile)); err == nil {
		t.Error("the declined command ran")
	}
}
