//lint:file-ignore SA1019 the test plays a client that sends roots, as clients before protocol 2026-07-28 do

package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectInRoot starts `spillway mcp args...` in / with a client that
// offers root (none when root is "").
func connectInRoot(t *testing.T, root string, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Dir = "/"
	cmd.Env = serverEnv(t.TempDir())
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "roots-test", Version: "1"}, nil)
	if root != "" {
		client.AddRoots(&mcp.Root{URI: "file://" + root, Name: "workspace"})
	}
	// Roots are asked for on the protocol versions that have them (Claude
	// Desktop, Cline); from 2026-07-28 on a server may not ask.
	cs, err := client.Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		checkStderr(t, "spillway mcp", stderr.String())
	})
	return cs
}

// A server started in / by a client that offers a root works in that
// root: bash's pwd, and relative paths of the file tools.
func TestRootsSetTheCwd(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "here.txt"), []byte("in the root\n"), 0o644)
	cs := connectInRoot(t, root)
	if got := text(call(t, cs, "bash", map[string]any{"command": "pwd"})); !strings.Contains(got, "stdout:\n"+root+"\n") {
		t.Errorf("pwd: %q, want %s", got, root)
	}
	if got := text(call(t, cs, "read", map[string]any{"path": "here.txt"})); !strings.Contains(got, "in the root") {
		t.Errorf("read here.txt: %q", got)
	}
	// Without --root roots the root is only the starting point.
	if res := call(t, cs, "read", map[string]any{"path": "/etc/hostname"}); res.IsError && strings.Contains(text(res), "outside") {
		t.Errorf("a root confined the session without --root roots: %q", text(res))
	}
}

// Without roots, the server's own cwd stays the session's.
func TestNoRootsKeepsTheCwd(t *testing.T) {
	t.Parallel()
	cs := connectInRoot(t, "")
	if got := text(call(t, cs, "bash", map[string]any{"command": "pwd"})); !strings.Contains(got, "stdout:\n/\n") {
		t.Errorf("pwd: %q, want /", got)
	}
}

// --root roots confines each session to its client's root, and refuses a
// client that offers none.
func TestRootRootsConfines(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("confidential-content\n"), 0o644)
	cs := connectInRoot(t, root, "--root", "roots")
	if got := text(call(t, cs, "bash", map[string]any{"command": "pwd"})); !strings.Contains(got, "stdout:\n"+root+"\n") {
		t.Errorf("pwd: %q, want %s", got, root)
	}
	if res := call(t, cs, "read", map[string]any{"path": outside}); !res.IsError || strings.Contains(text(res), "confidential-content") {
		t.Errorf("read outside the root: %q", text(res))
	}
	none := connectInRoot(t, "", "--root", "roots")
	if res := call(t, none, "ls", nil); !res.IsError || !strings.Contains(text(res), "offers none") {
		t.Errorf("a client without roots under --root roots: %q", text(res))
	}
}
