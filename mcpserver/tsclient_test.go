package mcpserver_test

// spillway through the official TypeScript SDK client, default options:
// its requests time out after 60 s, so a long command must come back
// backgrounded before that. .ci/run installs the SDK (npm ci in
// testdata/tsclient); elsewhere the test runs when node and the SDK are
// there.

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

// tsCall is one line client.mjs prints.
type tsCall struct {
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool           `json:"isError"`
		Meta    map[string]any `json:"_meta"`
	} `json:"result"`
	Error string `json:"error"`
	MS    int64  `json:"ms"`
}

// runTSClient runs client.mjs on calls and returns one tsCall per call.
func runTSClient(t *testing.T, calls []map[string]any) []tsCall {
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
	cmd := exec.Command(node, filepath.Join(dir, "client.mjs"), bin, string(data))
	cmd.Dir = dir
	cmd.Env = serverEnv(t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.mjs: %v\n%s", err, stderr.String())
	}
	var res []tsCall
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var c tsCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("client.mjs printed %q: %v", sc.Text(), err)
		}
		res = append(res, c)
	}
	if len(res) != len(calls) {
		t.Fatalf("client.mjs answered %d of %d calls\nstderr:\n%s", len(res), len(calls), stderr.String())
	}
	return res
}

func (c tsCall) text() string {
	var b strings.Builder
	if c.Result != nil {
		for _, ct := range c.Result.Content {
			if ct.Type == "text" {
				b.WriteString(ct.Text)
			}
		}
	}
	return b.String()
}

// A command longer than the client's 60 s request timeout comes back
// backgrounded, with its pid, before the client gives up.
func TestTypeScriptClientLongCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the 50 s default timeout")
	}
	t.Parallel()
	res := runTSClient(t, []map[string]any{
		{"name": "bash", "arguments": map[string]any{"command": "echo started; sleep 75"}},
		{"name": "bash", "arguments": map[string]any{"command": "printf 'alpha\\nbeta\\n'; echo err >&2"}},
	})
	long := res[0]
	t.Logf("sleep 75 returned after %d ms", long.MS)
	if long.Error != "" {
		t.Fatalf("sleep 75: the client gave up: %s", long.Error)
	}
	d, _ := long.Result.Meta["dev.spillway/details"].(map[string]any)
	if d["backgrounded"] != true || d["timed_out"] != true || d["pid"] == nil {
		t.Errorf("sleep 75: details %v, want backgrounded and timed out with a pid", d)
	}
	if !strings.Contains(long.text(), "stdout:\nstarted\n") || !strings.Contains(long.text(), "check_pid=") {
		t.Errorf("sleep 75: text %q, want the output so far and how to go on", long.text())
	}
	// The SDK's default handling: the model gets the text blocks, plain.
	if got, want := res[1].text(), "stdout:\nalpha\nbeta\n\nstderr:\nerr\n\nexit code: 0"; got != want {
		t.Errorf("TypeScript SDK client reads %q, want %q", got, want)
	}
}

// Under spillway mcp the bash description states the MCP timeout, and
// check_pid with a timeout waits for the job's next line.
func TestMCPTimeoutAndCheckWait(t *testing.T) {
	t.Parallel()
	cs := connectStdio(t, t.TempDir(), nil)
	tools, err := cs.ListTools(testContext(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Name == "bash" && !strings.Contains(tool.Description, "(default 50000, at most 55000)") {
			t.Errorf("the bash description does not state the MCP timeout:\n%s", tool.Description)
		}
	}
	start := call(t, cs, "bash", map[string]any{"command": "sleep 1; echo next; exec sleep 30", "run_in_background": true})
	pid := details(t, start)["pid"]
	res := call(t, cs, "bash", map[string]any{"check_pid": pid, "timeout": 25_000})
	if !strings.Contains(text(res), "stdout:\nnext\n") || details(t, res)["running"] != true {
		t.Errorf("check_pid with a wait: %q", text(res))
	}
}
