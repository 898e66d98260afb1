package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// elicitCall is one line elicit.mjs prints.
type elicitCall struct {
	tsCall
	Events []map[string]any `json:"events"`
}

// runElicitClient runs testdata/tsclient/elicit.mjs, declaring URL-mode
// elicitation when mode is "url", and answering its pages with secret.
func runElicitClient(t *testing.T, mode, secret string, calls []map[string]any) ([]elicitCall, string) {
	t.Helper()
	node, err := exec.LookPath("node")
	dir, _ := filepath.Abs(filepath.Join("testdata", "tsclient"))
	if err != nil {
		t.Skip("node is not installed")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		t.Skip("the TypeScript SDK is not installed: npm ci --prefix mcpserver/testdata/tsclient")
	}
	data, _ := json.Marshal(calls)
	cmd := exec.Command(node, filepath.Join(dir, "elicit.mjs"), bin, mode, string(data))
	cmd.Dir = dir
	cmd.Env = serverEnv(t.TempDir(), "SECRET_ANSWER="+secret)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("elicit.mjs: %v\n%s", err, stderr.String())
	}
	var res []elicitCall
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var c elicitCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("elicit.mjs printed %q: %v", sc.Text(), err)
		}
		res = append(res, c)
	}
	if len(res) != len(calls) {
		t.Fatalf("elicit.mjs answered %d of %d calls\nstderr:\n%s", len(res), len(calls), stderr.String())
	}
	if strings.Contains(string(out), secret) || strings.Contains(stderr.String(), secret) {
		t.Errorf("the client or the server printed the secret")
	}
	return res, stderr.String()
}

const readSecret = `read -r -s -p 'Secret: ' s; echo; printf '%s' "$s" | sha256sum | { read h _; echo "${#s} $h"; }`

// A client that declared URL-mode elicitation is sent elicitation/create
// with the page's address; the call waits for the answer and returns
// what follows it.
func TestTypeScriptClientURLElicitation(t *testing.T) {
	t.Parallel()
	const secret = "elicited s3cret & more+%"
	res, _ := runElicitClient(t, "url", secret, []map[string]any{
		{"name": "bash", "arguments": map[string]any{"command": readSecret, "tty": true, "timeout": 30_000}},
	})
	c := res[0]
	if c.Error != "" {
		t.Fatalf("the call failed: %s", c.Error)
	}
	var asked, completed map[string]any
	for _, e := range c.Events {
		if p, ok := e["elicitation"].(map[string]any); ok {
			asked = p
		}
		if p, ok := e["complete"].(map[string]any); ok {
			completed = p
		}
		if st, ok := e["posted"]; ok && st != float64(200) {
			t.Errorf("the page's post: %v", st)
		}
	}
	if asked == nil {
		t.Fatalf("no elicitation/create arrived: %v\n%s", c.Events, c.text())
	}
	url, _ := asked["url"].(string)
	if asked["mode"] != "url" || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.Contains(url, "/secret/") ||
		asked["elicitationId"] == "" || !strings.Contains(asked["message"].(string), "Secret:") {
		t.Errorf("elicitation/create: %v", asked)
	}
	if completed == nil || completed["elicitationId"] != asked["elicitationId"] {
		t.Errorf("notifications/elicitation/complete: %v", completed)
	}
	txt := c.text()
	if !strings.HasPrefix(txt, "[the password prompt was answered on the page]\n") || !strings.Contains(txt, received(secret)) || !strings.Contains(txt, "exit code: 0") {
		t.Errorf("the model reads:\n%s\nevents: %v", txt, c.Events)
	}
	if strings.Contains(txt, url) {
		t.Errorf("the model was given the page although the person was asked directly:\n%s", txt)
	}
}

// A client without URL-mode elicitation is told to ask the person to run
// spillway console; the model is never given the page's address.
func TestTypeScriptClientWithoutElicitationIsNotGivenTheAddress(t *testing.T) {
	t.Parallel()
	res, _ := runElicitClient(t, "none", "unused", []map[string]any{
		{"name": "bash", "arguments": map[string]any{"command": readSecret, "tty": true, "timeout": 30_000}},
	})
	c := res[0]
	if c.Error != "" || len(c.Events) != 0 {
		t.Fatalf("error %q, events %v", c.Error, c.Events)
	}
	d, _ := c.Result.Meta["dev.spillway/details"].(map[string]any)
	txt := c.text()
	if d["waiting_for_secret"] != true || field(d, "secret.url") != nil || !strings.Contains(txt, "[waiting for a secret: ask the person to run spillway console]\n") || strings.Contains(txt, "/secret/") {
		t.Errorf("details %v\nthe model reads:\n%s", d, txt)
	}
	next, _ := d["next"].([]any)
	if len(next) != 1 || field(next[0].(map[string]any), "tool") != "bash" {
		t.Errorf("details.next: %v", next)
	}
}
