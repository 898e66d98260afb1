package mcpserver_test

import (
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway/mcpserver"
)

// SessionDescriptors is what a session with a running job that writes
// little holds open beside its connection, measured: serve with sessions
// open, then a background job started in each; the descriptors the jobs
// added, a session's share, rounds to SessionDescriptors. The serve start
// line and the connection cap are worked out from it, so a change either
// way (a reader that holds a pipe twice, or one descriptor fewer) must
// change the constant and the limit docs/operations.md gives.
func TestSessionDescriptors(t *testing.T) {
	t.Parallel()
	const sessions = 16
	s := startHTTP(t, nil)
	pid := s.cmd.Process.Pid
	var css []*mcp.ClientSession
	for range sessions {
		cs := connectHTTP(t, s.url, nil, nil, true)
		call(t, cs, "ls", map[string]any{}) // the session's toolset is made
		css = append(css, cs)
	}
	before := openFDs(t, pid)
	for _, cs := range css {
		res := call(t, cs, "bash", map[string]any{"command": "sleep 600", "run_in_background": true})
		if res.IsError {
			t.Fatalf("bash: %s", text(res))
		}
	}
	each := float64(openFDs(t, pid)-before) / sessions
	t.Logf("%.2f descriptors a session with a running job (%d with the sessions open)", each, before)
	if math.Round(each) != mcpserver.SessionDescriptors {
		t.Errorf("a session with a running job holds %.2f descriptors, SessionDescriptors says %d", each, mcpserver.SessionDescriptors)
	}
}

// openFDs counts the descriptors process pid holds open.
func openFDs(t *testing.T, pid int) int {
	t.Helper()
	names, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(names)
}
