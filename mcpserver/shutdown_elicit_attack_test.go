package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeExitsWithElicitationPending: a call waits on an approval
// whose client went away; SIGTERM must still end serve. The SDK's wait
// for the client's answer takes no context, so before the exit was
// bounded serve stayed "draining" for good, and a second SIGTERM did
// nothing.
func TestServeExitsWithElicitationPending(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "rules.toml")
	if err := os.WriteFile(cfg, []byte("[rules]\ndefault = \"ask\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, nil, "--config", cfg, "--drain-timeout=1s")
	asked := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	opts := &mcp.ClientOptions{ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		close(asked)
		<-release // the person never answers
		return nil, context.Canceled
	}}
	cs := connectHTTP(t, s.url, opts, nil, false)
	ctx, cancel := context.WithCancel(context.Background())
	go cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "touch never"}})
	select {
	case <-asked:
	case <-time.After(hangGuard):
		t.Fatal("the call was never asked about")
	}
	// The client stays silent: the approval is never answered.
	defer cancel()
	s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(hangGuard):
		s.cmd.Process.Kill()
		<-done
		t.Fatalf("serve did not exit on SIGTERM with an elicitation pending; stderr:\n%s", s.stderr)
	}
}
