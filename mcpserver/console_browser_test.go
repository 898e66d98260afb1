//go:build linux

package mcpserver_test

// The console in a real browser (browser_driver_test.go).

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/spillway-dev/spillway/internal/console"
)

// A driven is what the driver answered.
type driven struct {
	OK         bool     `json:"ok"`
	Status     string   `json:"status"`
	Main       string   `json:"main"`
	Body       string   `json:"body"`
	Requests   []string `json:"requests"`
	PostStatus int      `json:"postStatus"`
	PostBody   string   `json:"postBody"`
	Error      string   `json:"error"`
	// Seen are the lines watchLines saw: each line's number, the
	// milliseconds since the epoch when the job printed it and when the
	// page showed it.
	Seen map[string][2]float64 `json:"seen"`
}

// do sends one request; a driver error fails the test unless allowed.
func (d *browserDriver) do(t *testing.T, req map[string]any) driven {
	t.Helper()
	var v driven
	d.roundTrip(t, req, &v)
	if v.Error != "" {
		t.Fatalf("browser %v: %s", req, v.Error)
	}
	return v
}

// newConsole starts a console of dir and returns it with its link.
func newConsole(t *testing.T, dir string) (*console.Console, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c := console.NewConsole(dir, "", nil)
	link, err := c.Listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return c, link
}

// The person logs in with the link and answers in the browser: an
// approval allowed runs the command, a deny does not; a page of another
// loopback port, open in the same browser, cannot approve; a password
// typed on the page reaches the program; a job's output moves on the
// page; the used link and a page without the login show nothing.
func TestConsoleInABrowser(t *testing.T) {
	t.Parallel()
	d := startBrowserDriver(t)
	s := startConsoleServer(t, nil, "", "--config", rulesConfig(t))
	c, link := newConsole(t, s.dir)
	tab := "person-" + marker("tab")
	v := d.do(t, map[string]any{"op": "goto", "tab": tab, "url": link})
	if strings.Contains(v.Status, "already used") || !strings.Contains(v.Main, fmt.Sprintf("pid %d", s.pid)) {
		t.Fatalf("after the link:\n%s\n%s", v.Status, v.Main)
	}
	if !strings.HasPrefix(strings.TrimSpace(v.Main), "Unsandboxed:") {
		t.Errorf("the page's first line does not say it is unsandboxed:\n%s", v.Main)
	}
	answer := func(command, choice string) {
		t.Helper()
		d.do(t, map[string]any{"op": "waitText", "tab": tab, "text": command})
		v := d.do(t, map[string]any{"op": "click", "tab": tab, "waitPost": true, "selector": fmt.Sprintf(`form.approval:has-text(%q) button[value=%q]`, command, choice)})
		if v.PostStatus != http.StatusNoContent {
			t.Fatalf("the answer's post: %d %s", v.PostStatus, v.PostBody)
		}
	}

	t.Run("allowed runs", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), marker("yes"))
		done := callAsync(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir})
		answer("mkdir "+dir, "allow once")
		if res := <-done; !exists(dir) {
			t.Errorf("did not run:\n%s", text(res))
		}
	})
	t.Run("denied does not run", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), marker("no"))
		done := callAsync(t, s.cs, "bash", map[string]any{"command": "mkdir " + dir})
		answer("mkdir "+dir, "deny")
		if res := <-done; exists(dir) || !strings.Contains(text(res), "denied") {
			t.Errorf("ran %v:\n%s", exists(dir), text(res))
		}
	})
	t.Run("another port cannot approve", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), marker("evil"))
		// The call gives up at once; its question stays on the page, and
		// an approval there would let the same command run next time.
		args := map[string]any{"command": "mkdir " + dir, "timeout": 200}
		if res := call(t, s.cs, "bash", args); !strings.Contains(text(res), "waiting for approval") {
			t.Fatalf("result:\n%s", text(res))
		}
		d.do(t, map[string]any{"op": "waitText", "tab": tab, "text": "mkdir " + dir})
		// The attacker knows the item's id and the server's pid: the
		// worst case. Only the login, kept in the console's own origin,
		// is out of its reach.
		b2, _ := openConsole(t, s.dir) // a second console, to read the id
		id := b2.pendingItem("mkdir " + dir)
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!doctype html><body><p id="main">evil</p>
<iframe name="sink"></iframe>
<form id="f" method="post" target="sink" action="%[1]s/api/answer"><input name="server" value="%[2]d"><input name="id" value="%[3]s"><input name="choice" value="allow once"></form>
<script>
(async () => {
  const body = "server=%[2]d&id=%[3]s&choice=allow+once";
  const out = [];
  for (const mode of ["cors", "no-cors"]) {
    try {
      const r = await fetch("%[1]s/api/answer", {method: "POST", mode, credentials: "include", headers: {"Content-Type": "application/x-www-form-urlencoded"}, body});
      out.push(mode + ":" + r.status);
    } catch (e) { out.push(mode + ":" + e); }
  }
  try { const r = await fetch("%[1]s/api/view", {credentials: "include"}); out.push("view:" + r.status + ":" + (await r.text()).length); } catch (e) { out.push("view:" + e); }
  document.getElementById("main").textContent = "tried " + out.join(" ");
  document.getElementById("f").submit();
})();
</script></body>`, c.Origin(), s.pid, id)
		}))
		defer evil.Close()
		d.do(t, map[string]any{"op": "goto", "tab": tab + "-evil", "url": evil.URL})
		v := d.do(t, map[string]any{"op": "waitText", "tab": tab + "-evil", "text": "tried", "timeout": 90000})
		if strings.Contains(v.Main, ":204") || strings.Contains(v.Main, "view:200") {
			t.Errorf("the other origin's requests: %s", v.Main)
		}
		// The person's tab still shows the question; nothing ran.
		v = d.do(t, map[string]any{"op": "text", "tab": tab})
		if !strings.Contains(v.Main, "mkdir "+dir) || exists(dir) {
			t.Fatalf("another origin approved (ran %v):\n%s", exists(dir), v.Main)
		}
		if res := call(t, s.cs, "bash", args); !strings.Contains(text(res), "waiting for approval") || exists(dir) {
			t.Fatalf("the same command again ran (%v):\n%s", exists(dir), text(res))
		}
		answer("mkdir "+dir, "deny")
	})
	t.Run("password", func(t *testing.T) {
		loot := filepath.Join(t.TempDir(), "got")
		const secret = "tr0ub4dor & 3"
		res := call(t, s.cs, "bash", map[string]any{"command": "read -s -p 'Vault password: ' p; printf %s \"$p\" > " + loot + "; echo; sleep 1", "tty": true, "timeout": 20000})
		pid := details(t, res)["pid"]
		d.do(t, map[string]any{"op": "waitText", "tab": tab, "text": "Vault password:"})
		d.do(t, map[string]any{"op": "type", "tab": tab, "selector": `form.secret input[type=password]`, "text": secret})
		if v := d.do(t, map[string]any{"op": "click", "tab": tab, "waitPost": true, "selector": `form.secret button[value=answer]`}); v.PostStatus != http.StatusNoContent {
			t.Fatalf("the answer's post: %d %s", v.PostStatus, v.PostBody)
		}
		res = call(t, s.cs, "bash", map[string]any{"check_pid": pid, "timeout": 10000})
		if got, _ := os.ReadFile(loot); string(got) != secret {
			t.Errorf("the program got %q", got)
		}
		if strings.Contains(text(res), "tr0ub") {
			t.Errorf("the model saw it:\n%s", text(res))
		}
	})
	t.Run("output moves", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "go")
		call(t, s.cs, "bash", map[string]any{"command": "mkfifo " + fifo + "; echo first-$((0+1)); read x < " + fifo + "; echo second-$((1+1)); sleep 30", "timeout": 300})
		d.do(t, map[string]any{"op": "waitText", "tab": tab, "text": "first-1"})
		if v := d.do(t, map[string]any{"op": "text", "tab": tab}); strings.Contains(v.Main, "second-2") {
			t.Fatal("the second line before it was printed")
		}
		if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		d.do(t, map[string]any{"op": "waitText", "tab": tab, "text": "second-2"})
	})
	t.Run("take over", func(t *testing.T) {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("python3 is not installed")
		}
		// An interpreter on a terminal is asked for: approved on the page.
		done := callAsync(t, s.cs, "bash", map[string]any{"command": "python3 -q", "tty": true, "timeout": 10000})
		answer("python3 -q", "allow once")
		res := <-done
		pid := details(t, res)["pid"]
		if pid == nil || !strings.Contains(text(res), ">>>") {
			t.Fatalf("the REPL does not wait:\n%s", text(res))
		}
		d.do(t, map[string]any{"op": "click", "tab": tab, "selector": fmt.Sprintf(`button.take-over[data-pid="%v"]`, pid)})
		d.do(t, map[string]any{"op": "waitIn", "tab": tab, "selector": "#terminal", "text": ">>>"})
		// While the person holds it, the model cannot type into it.
		held := call(t, s.cs, "write_stdin", map[string]any{"pid": pid, "input": "print(1)\n"})
		if !held.IsError || !strings.Contains(text(held), "held by the person in spillway console") {
			t.Errorf("write_stdin while held:\n%s", text(held))
		}
		d.do(t, map[string]any{"op": "keys", "tab": tab, "text": "print(6*7)"})
		d.do(t, map[string]any{"op": "press", "tab": tab, "key": "Enter"})
		d.do(t, map[string]any{"op": "waitIn", "tab": tab, "selector": "#terminal", "text": "42"})
		d.do(t, map[string]any{"op": "click", "tab": tab, "selector": "#hand-back"})
		look := text(call(t, s.cs, "bash", map[string]any{"check_pid": pid, "timeout": 2000}))
		if !strings.Contains(look, "42") || !strings.Contains(look, "the person typed into this job") {
			t.Errorf("the model's next look:\n%s", look)
		}
		// Handed back, the model types again (what it types into an
		// interpreter is asked for, and approved on the page).
		again := callAsync(t, s.cs, "write_stdin", map[string]any{"pid": pid, "input": "print(2**10)\n", "timeout": 20000})
		d.do(t, map[string]any{"op": "waitText", "tab": tab, "text": "approval"})
		d.do(t, map[string]any{"op": "click", "tab": tab, "waitPost": true, "selector": `form.approval button[value="allow once"]`})
		if res := <-again; !strings.Contains(text(res), "1024") {
			t.Errorf("write_stdin after the hand-back:\n%s", text(res))
		}
		call(t, s.cs, "bash", map[string]any{"kill_pid": pid})
	})
	t.Run("used link", func(t *testing.T) {
		v := d.do(t, map[string]any{"op": "goto", "tab": tab + "-again", "context": tab + "-other", "url": link})
		if !strings.Contains(v.Status, "already used") || strings.Contains(v.Main, "pid") {
			t.Errorf("the link opened the console again:\n%s\n%s", v.Status, v.Main)
		}
	})
	t.Run("no login", func(t *testing.T) {
		v := d.do(t, map[string]any{"op": "goto", "tab": tab + "-anon", "context": tab + "-anon", "url": c.Origin() + "/"})
		if !strings.Contains(v.Status, "Not logged in") || strings.TrimSpace(v.Main) != "" {
			t.Errorf("without the login:\n%s\n%s", v.Status, v.Main)
		}
	})
}

// With a client that shows forms, the question is asked on both; the
// person answers in one and the other is withdrawn: the page's answer
// cancels the client's form request, and the form's answer takes the
// item off the page in the browser.
func TestConsoleInABrowserWithAForm(t *testing.T) {
	t.Parallel()
	d := startBrowserDriver(t)
	formUp := make(chan string, 4)             // the message of each form shown
	formAnswer := make(chan *mcp.ElicitResult) // the person answers the form
	withdrawn := make(chan string, 4)          // the forms cancelled by the server
	opts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		formUp <- req.Params.Message
		select {
		case res := <-formAnswer:
			return res, nil
		case <-ctx.Done():
			withdrawn <- req.Params.Message
			return nil, ctx.Err()
		}
	}}
	s := startConsoleServer(t, opts, "2025-11-25", "--config", rulesConfig(t))
	_, link := newConsole(t, s.dir)
	tab := "form-" + marker("tab")
	if v := d.do(t, map[string]any{"op": "goto", "tab": tab, "url": link}); !strings.Contains(v.Main, fmt.Sprintf("pid %d", s.pid)) {
		t.Fatalf("after the link:\n%s\n%s", v.Status, v.Main)
	}
	shown := func(ch <-chan string, what, command string) {
		t.Helper()
		select {
		case msg := <-ch:
			if !strings.Contains(msg, command) {
				t.Fatalf("the form %s is another's:\n%s", what, msg)
			}
		case <-time.After(hangGuard):
			t.Fatalf("no form %s for %s", what, command)
		}
	}

	t.Run("page first", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), marker("page"))
		command := "mkdir " + dir
		done := callAsync(t, s.cs, "bash", map[string]any{"command": command})
		shown(formUp, "shown", command)
		d.do(t, map[string]any{"op": "waitText", "tab": tab, "text": command})
		if v := d.do(t, map[string]any{"op": "click", "tab": tab, "waitPost": true, "selector": fmt.Sprintf(`form.approval:has-text(%q) button[value="allow once"]`, command)}); v.PostStatus != http.StatusNoContent {
			t.Fatalf("the answer's post: %d %s", v.PostStatus, v.PostBody)
		}
		shown(withdrawn, "withdrawn", command)
		if res := <-done; !exists(dir) {
			t.Errorf("did not run:\n%s", text(res))
		}
		d.do(t, map[string]any{"op": "waitGone", "tab": tab, "selector": fmt.Sprintf(`form.approval:has-text(%q)`, command)})
	})
	t.Run("form first", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), marker("form"))
		command := "mkdir " + dir
		done := callAsync(t, s.cs, "bash", map[string]any{"command": command})
		shown(formUp, "shown", command)
		d.do(t, map[string]any{"op": "waitText", "tab": tab, "text": command})
		formAnswer <- &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "allow once"}}
		if res := <-done; !exists(dir) {
			t.Errorf("did not run:\n%s", text(res))
		}
		// The item leaves the page the person has open.
		d.do(t, map[string]any{"op": "waitGone", "tab": tab, "selector": fmt.Sprintf(`form.approval:has-text(%q)`, command)})
		select {
		case msg := <-withdrawn:
			t.Errorf("a form answered was also withdrawn: %s", msg)
		default:
		}
	})
}
