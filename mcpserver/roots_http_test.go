//lint:file-ignore SA1019 the test plays a client that sends roots, as clients before protocol 2026-07-28 do

package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client over Streamable HTTP that offers a root has its session start
// there, as over stdio. The server asks for the roots when the session
// begins, before any call: the Go SDK's client never answers a roots/list
// sent on a call's own response stream (nor does Claude Code), and answers
// one on the session's stream only between its calls.
func TestRootsOverHTTP(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "here.txt"), []byte("in the root\n"), 0o644)
	s := startHTTP(t, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "roots-http-test", Version: "1"}, nil)
	client.AddRoots(&mcp.Root{URI: "file://" + root, Name: "workspace"})
	asked := make(chan struct{}, 1)
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "roots/list" {
				select {
				case asked <- struct{}{}:
				default:
				}
			}
			return res, err
		}
	})
	cs, err := client.Connect(testContext(t), &mcp.StreamableClientTransport{Endpoint: s.url},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	select {
	case <-asked:
	case <-time.After(hangGuard):
		t.Fatal("the server did not ask for the client's roots when the session began")
	}
	// The client's answer leaves after its handler returns; a ping sent
	// now leaves after it (the SDK's client sends in order), so that the
	// first call below does not overtake it.
	if err := cs.Ping(testContext(t), nil); err != nil {
		t.Fatal(err)
	}
	if got := text(call(t, cs, "bash", map[string]any{"command": "pwd"})); !strings.Contains(got, "stdout:\n"+root+"\n") {
		t.Errorf("pwd: %q, want %s (the client's root)", got, root)
	}
	if got := text(call(t, cs, "read", map[string]any{"path": "here.txt"})); !strings.Contains(got, "in the root") {
		t.Errorf("read here.txt: %q", got)
	}
}
