//go:build linux

package mcpserver_test

import (
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAttackKilledServerLeavesNoGrandchild: `sleep M & sleep M` started
// with run_in_background outlived `kill -9` of `spillway mcp` without
// the sandbox: the parent-death signal reached only the shell. A daemon
// that left the job's group with setsid outlived it too.
func TestAttackKilledServerLeavesNoGrandchild(t *testing.T) {
	m := "4" + strconv.FormatInt(time.Now().UnixNano()%1000000, 10) + ".75"
	cmd := exec.Command(bin, "mcp")
	cmd.Env = serverEnv(t.TempDir())
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to spillway mcp: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		for _, p := range sleepers(m) {
			syscall.Kill(p, syscall.SIGKILL)
		}
	})
	call(t, cs, "bash", map[string]any{"command": "sleep " + m + " & (setsid sleep " + m + " &); sleep " + m, "run_in_background": true})
	waitFor(t, "the sleepers", func() bool { return len(sleepers(m)) == 3 })
	cmd.Process.Kill()
	waitFor(t, "the killed server's grandchildren to die", func() bool { return len(sleepers(m)) == 0 })
}
