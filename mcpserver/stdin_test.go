package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// Requests read before stdin closes are answered before spillway mcp
// exits: `printf '<initialize>\n<tools/list>\n' | spillway mcp` gets both
// answers, every time (go-sdk#1061 dropped them when the input ended).
func TestAnswersBeforeStdinCloses(t *testing.T) {
	t.Parallel()
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
	for run := range 20 {
		cmd := exec.Command(bin, "mcp")
		cmd.Env = serverEnv(t.TempDir())
		cmd.Stdin = strings.NewReader(in)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		got := map[float64]bool{}
		for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
			var m struct {
				ID     float64         `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(line, &m) == nil && m.Result != nil {
				got[m.ID] = true
			}
		}
		if !got[1] || !got[2] {
			t.Fatalf("run %d: answered %v of ids 1 and 2:\n%s", run, got, out)
		}
	}
}

// A bash call still running when stdin closes is answered too: it is
// cancelled (its process group killed) and its result written.
func TestRunningCallAnsweredAfterStdinCloses(t *testing.T) {
	t.Parallel()
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo begun; sleep 30"}}}` + "\n"
	cmd := exec.Command(bin, "mcp")
	cmd.Env = serverEnv(t.TempDir())
	cmd.Stdin = strings.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"id":2,"result"`)) || !bytes.Contains(out, []byte(`begun`)) {
		t.Fatalf("the bash call was not answered:\n%s", out)
	}
}
