//lint:file-ignore SA1019 the test plays a client that sends roots, as clients before protocol 2026-07-28 do

package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client over Streamable HTTP that offers a root has its session start
// there, as over stdio. The Go SDK's client does not answer a roots/list
// sent on a call's response stream, so the server asks when the session
// begins, outside any call.
func TestRootsOverHTTP(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "here.txt"), []byte("in the root\n"), 0o644)
	s := startHTTP(t, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "roots-http-test", Version: "1"}, nil)
	client.AddRoots(&mcp.Root{URI: "file://" + root, Name: "workspace"})
	cs, err := client.Connect(testContext(t), &mcp.StreamableClientTransport{Endpoint: s.url},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := text(call(t, cs, "bash", map[string]any{"command": "pwd"})); !strings.Contains(got, "stdout:\n"+root+"\n") {
		t.Errorf("pwd: %q, want %s (the client's root)", got, root)
	}
	if got := text(call(t, cs, "read", map[string]any{"path": "here.txt"})); !strings.Contains(got, "in the root") {
		t.Errorf("read here.txt: %q", got)
	}
}
