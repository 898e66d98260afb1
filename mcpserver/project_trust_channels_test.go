//go:build linux

package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// trustAnswer is the choice that trusts the project's rules.
const trustAnswer = "trust this project's rules"

// trustProject is a project whose own rule files allow every command
// (Claude Code's local settings) and wget (a Codex rules file), and deny
// touch; the person's config asks for what no rule allows, and for
// rmdir. It returns the project, the config and the server's
// environment, whose state file is stateFile.
func trustProject(t *testing.T) (project, cfg, stateFile string, env []string) {
	t.Helper()
	home := t.TempDir()
	project, _ = filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.MkdirAll(filepath.Join(project, ".codex", "rules"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "settings.local.json"), []byte(`{"permissions": {"allow": ["Bash(*)"], "deny": ["Bash(touch *)"]}}`), 0o644)
	os.WriteFile(filepath.Join(project, ".codex", "rules", "project.rules"), []byte(`prefix_rule(["wget"], "allow")`+"\n"), 0o644)
	cfg = filepath.Join(home, "config.toml")
	os.WriteFile(cfg, []byte("[rules]\ndefault = \"ask\"\nask = [\"rmdir *\"]\nimport = [\"claude-code\", \"codex\"]\n"), 0o644)
	stateFile = filepath.Join(home, "state", "spillway", "state.json")
	env = serverEnv(t.TempDir(), "HOME="+home, "XDG_STATE_HOME="+filepath.Join(home, "state"), "CODEX_HOME=", "CLAUDE_CONFIG_DIR=")
	return project, cfg, stateFile, env
}

// grantVia is how the state file says the project was trusted, "" when
// it holds no grant for it.
func grantVia(t *testing.T, stateFile, project string) string {
	t.Helper()
	b, err := os.ReadFile(stateFile)
	if err != nil {
		return ""
	}
	var st struct {
		Projects map[string]struct{ Via string } `json:"projects"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("the state file: %v\n%s", err, b)
	}
	return st.Projects[project].Via
}

// A form is one question the client was shown: its message and choices.
type form struct {
	message string
	choices []string
}

// formsSeen records the forms a client is shown, and answers each with
// answer(form).
type formsSeen struct {
	mu    sync.Mutex
	forms []form
}

func (f *formsSeen) handler(answer func(form) string) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		var q form
		q.message = req.Params.Message
		schema, _ := json.Marshal(req.Params.RequestedSchema)
		var s struct {
			Properties struct {
				Choice struct {
					Enum []string `json:"enum"`
				} `json:"choice"`
			} `json:"properties"`
		}
		json.Unmarshal(schema, &s)
		q.choices = s.Properties.Choice.Enum
		f.mu.Lock()
		f.forms = append(f.forms, q)
		f.mu.Unlock()
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": answer(q)}}, nil
	}
}

func (f *formsSeen) count() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.forms) }

func (f *formsSeen) last() form { f.mu.Lock(); defer f.mu.Unlock(); return f.forms[len(f.forms)-1] }

// startIn starts spillway mcp in dir with env and a runtime directory of
// its own, for a client with opts.
func startIn(t *testing.T, dir string, env []string, opts *mcp.ClientOptions, args ...string) *consoleServer {
	t.Helper()
	return startInProtocol(t, dir, env, opts, "", args...)
}

// startInProtocol is startIn for a client speaking protocol (the SDK's
// latest when empty).
func startInProtocol(t *testing.T, dir string, env []string, opts *mcp.ClientOptions, protocol string, args ...string) *consoleServer {
	t.Helper()
	run, err := os.MkdirTemp("/tmp", "st")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	cmd := exec.Command(bin, append(args, "mcp")...)
	cmd.Dir, cmd.Env = dir, append(slices.Clone(env), "XDG_RUNTIME_DIR="+run)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	var so *mcp.ClientSessionOptions
	if protocol != "" {
		so = &mcp.ClientSessionOptions{ProtocolVersion: protocol}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "trust-test", Version: "1"}, opts).Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, so)
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

// The person trusts a project through the client's form, asked at the
// moment it matters: a command the project's own suspended allow entry
// would have allowed. The form shows the project's allow entries and
// offers to trust them; chosen, the grant is kept (via "form"), the
// command runs, and the project's allow entries count for the rest of
// the session and the next; its deny entry still denies. A question
// that no project entry would have answered offers no trust. After a
// rules file changes, the trust is offered again.
func TestProjectTrustThroughTheForm(t *testing.T) {
	t.Parallel()
	project, cfg, stateFile, env := trustProject(t)
	var seen formsSeen
	opts := &mcp.ClientOptions{ElicitationHandler: seen.handler(func(f form) string {
		if slices.Contains(f.choices, trustAnswer) {
			return trustAnswer
		}
		return "deny"
	})}
	s := startIn(t, project, env, opts, "--config", cfg)

	dir := filepath.Join(project, marker("trusted"))
	res := call(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir})
	if seen.count() != 1 {
		t.Fatalf("%d forms, want 1:\n%s", seen.count(), text(res))
	}
	f := seen.last()
	if !slices.Contains(f.choices, trustAnswer) || !strings.Contains(f.message, "Bash(*)") || !strings.Contains(f.message, `prefix_rule(pattern=["wget"])`) || !strings.Contains(f.message, project) {
		t.Errorf("the form does not offer the project's trust with its entries: %q\n%s", f.choices, f.message)
	}
	if res.IsError || !exists(dir) || field(details(t, res), "rules.decision") != "allow" {
		t.Fatalf("the command did not run after the trust (ran %v):\n%s", exists(dir), text(res))
	}
	if via := grantVia(t, stateFile, project); via != "form" {
		t.Errorf("the grant is via %q, want form", via)
	}
	// The session's rules are the trusted ones now: no form.
	if res := call(t, s.cs, "bash", map[string]any{"command": "wget --version"}); seen.count() != 1 || field(details(t, res), "rules.decision") != "allow" {
		t.Errorf("wget after the trust: %d forms, decision %v", seen.count(), field(details(t, res), "rules.decision"))
	}
	if res := call(t, s.cs, "bash", map[string]any{"command": "touch x"}); field(details(t, res), "rules.decision") != "deny" || exists(filepath.Join(project, "x")) {
		t.Errorf("the project's deny entry: %v", field(details(t, res), "rules.decision"))
	}
	// The person's own ask rule is asked, with no trust to offer.
	before := seen.count()
	res = call(t, s.cs, "bash", map[string]any{"command": "rmdir " + dir})
	if seen.count() != before+1 || slices.Contains(seen.last().choices, trustAnswer) || !exists(dir) {
		t.Errorf("rmdir under the person's ask rule: %d forms, choices %q, ran %v:\n%s", seen.count()-before, seen.last().choices, !exists(dir), text(res))
	}

	// A new session: trusted, nothing asked.
	s2 := startIn(t, project, env, opts, "--config", cfg)
	before = seen.count()
	if res := call(t, s2.cs, "bash", map[string]any{"command": "true"}); seen.count() != before || field(details(t, res), "rules.decision") != "allow" {
		t.Errorf("a new session: %d forms, decision %v", seen.count()-before, field(details(t, res), "rules.decision"))
	}

	// A rules file changes: the trust is offered again.
	os.WriteFile(filepath.Join(project, ".codex", "rules", "project.rules"), []byte(`prefix_rule(["wget"], "allow")`+"\nprefix_rule([\"curl\"])\n"), 0o644)
	s3 := startIn(t, project, env, &mcp.ClientOptions{ElicitationHandler: seen.handler(func(form) string { return "deny" })}, "--config", cfg)
	before = seen.count()
	res = call(t, s3.cs, "bash", map[string]any{"command": "wget --version"})
	if seen.count() != before+1 || !slices.Contains(seen.last().choices, trustAnswer) || !res.IsError {
		t.Errorf("after a change: %d forms, choices %q:\n%s", seen.count()-before, seen.last().choices, text(res))
	}
}

// The same through a client of a protocol where the server sends the
// form (elicitation/create) while the call waits, beside the console.
func TestProjectTrustThroughTheFormSentByServer(t *testing.T) {
	t.Parallel()
	project, cfg, stateFile, env := trustProject(t)
	var seen formsSeen
	s := startInProtocol(t, project, env, &mcp.ClientOptions{ElicitationHandler: seen.handler(func(form) string { return trustAnswer })}, "2025-11-25", "--config", cfg)
	dir := filepath.Join(project, marker("sent"))
	res := call(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir})
	if seen.count() != 1 || !slices.Contains(seen.last().choices, trustAnswer) || res.IsError || !exists(dir) {
		t.Fatalf("%d forms, ran %v:\n%s", seen.count(), exists(dir), text(res))
	}
	if via := grantVia(t, stateFile, project); via != "form" {
		t.Errorf("the grant is via %q, want form", via)
	}
}

// A client without elicitation: the question waits on the console,
// which shows the project's allow entries and offers to trust them;
// the person's choice there trusts the project (via the console), the
// command runs, and the session's next command the project allows runs
// without asking.
func TestProjectTrustThroughTheConsole(t *testing.T) {
	t.Parallel()
	project, cfg, stateFile, env := trustProject(t)
	s := startIn(t, project, env, nil, "--config", cfg)
	b, _ := openConsole(t, s.dir)
	dir := filepath.Join(project, marker("console-trust"))
	done := callAsync(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir, "timeout": 50000})
	id := b.pendingItem("mkdir " + dir)
	_, page := b.do(http.MethodGet, "/api/view", nil)
	for _, want := range []string{`value="` + strings.ReplaceAll(trustAnswer, "'", "&#39;") + `"`, "Bash(*)", "prefix_rule(pattern=[&#34;wget&#34;])"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %s:\n%s", want, page)
		}
	}
	if code, body := b.answer(s.pid, id, trustAnswer); code != http.StatusNoContent {
		t.Fatalf("answer: %d %s", code, body)
	}
	res := <-done
	if res.IsError || !exists(dir) {
		t.Fatalf("the command did not run after the trust:\n%s", text(res))
	}
	if via := grantVia(t, stateFile, project); !strings.HasPrefix(via, "console") {
		t.Errorf("the grant is via %q, want console", via)
	}
	if res := call(t, s.cs, "bash", map[string]any{"command": "wget --version", "timeout": 300}); field(details(t, res), "rules.decision") != "allow" {
		t.Errorf("wget after the trust:\n%s", text(res))
	}
	// The trust is offered only with a question that has it.
	done = callAsync(t, s.cs, "bash", map[string]any{"command": "rmdir " + dir, "timeout": 50000})
	id = b.pendingItem("rmdir " + dir)
	if code, _ := b.answer(s.pid, id, trustAnswer); code == http.StatusNoContent {
		t.Error("a question that offers no trust took the trust answer")
	}
	if code, body := b.answer(s.pid, id, "deny"); code != http.StatusNoContent {
		t.Fatalf("answer: %d %s", code, body)
	}
	if res := <-done; !exists(dir) {
		t.Errorf("a denied rmdir ran:\n%s", text(res))
	}
}

// In a real browser: the page shows the project's allow entries, and the
// person's click on "trust this project's rules" trusts it and runs the
// command. Its time is the shared browser's start (startBrowserDriver),
// which the other browser tests wait on too; its own part is a server
// and one question.
func TestProjectTrustInABrowser(t *testing.T) {
	t.Parallel()
	d := startBrowserDriver(t)
	project, cfg, stateFile, env := trustProject(t)
	s := startIn(t, project, env, nil, "--config", cfg)
	_, link := newConsole(t, s.dir)
	tab := "trust-" + marker("tab")
	d.do(t, map[string]any{"op": "goto", "tab": tab, "url": link})
	dir := filepath.Join(project, marker("browser-trust"))
	done := callAsync(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir, "timeout": 50000})
	v := d.do(t, map[string]any{"op": "waitText", "tab": tab, "text": "mkdir " + dir})
	if !strings.Contains(v.Main, `prefix_rule(pattern=["wget"])`) || !strings.Contains(v.Main, "Bash(*)") {
		t.Errorf("the page does not show the project's allow entries:\n%s", v.Main)
	}
	v = d.do(t, map[string]any{"op": "click", "tab": tab, "waitPost": true, "selector": fmt.Sprintf(`form.approval:has-text(%q) button[value=%q]`, "mkdir "+dir, trustAnswer)})
	if v.PostStatus != http.StatusNoContent {
		t.Fatalf("the answer's post: %d %s", v.PostStatus, v.PostBody)
	}
	if res := <-done; res.IsError || !exists(dir) {
		t.Fatalf("the command did not run after the trust:\n%s", text(res))
	}
	if via := grantVia(t, stateFile, project); !strings.HasPrefix(via, "console") {
		t.Errorf("the grant is via %q, want console", via)
	}
}
