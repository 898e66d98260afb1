//go:build linux

package mcpserver_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

// Attacks on `--root --sandbox` through the MCP server, as an agent (or a
// prompt-injected command) makes them.

// sandboxed is a `spillway mcp --root R --sandbox` and its client.
type sandboxed struct {
	cs            *mcp.ClientSession
	cmd           *exec.Cmd
	root, outside string
	tmp           string
}

// sandboxLayers are the layers `spillway version` reports here.
func sandboxLayers(t *testing.T) sandbox.Layer {
	t.Helper()
	if ok, abi, err := sandbox.Status(); !ok || abi < sandbox.FilesABI {
		t.Skipf("no Landlock here (ABI %d, %v)", abi, err)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	_, line, _ := strings.Cut(string(out), "sandbox layers: ")
	line, _, _ = strings.Cut(line, ";")
	ls, err := sandbox.ParseLayers(line)
	if err != nil {
		t.Fatalf("version says %q: %v", out, err)
	}
	return ls
}

func startSandboxed(t *testing.T, flags ...string) *sandboxed {
	t.Helper()
	base := t.TempDir()
	s := &sandboxed{root: filepath.Join(base, "root"), outside: filepath.Join(base, "outside"), tmp: filepath.Join(base, "tmp")}
	for _, d := range []string{s.root, s.outside, s.tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.cmd = exec.Command(bin, append([]string{"mcp", "--root", s.root, "--sandbox"}, flags...)...)
	s.cmd.Env = serverEnv(s.tmp)
	stderr := &lockedBuffer{}
	s.cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(testContext(t), &mcp.CommandTransport{Command: s.cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to spillway mcp: %v\nstderr:\n%s", err, stderr)
	}
	s.cs = cs
	t.Cleanup(func() {
		cs.Close()
		checkStderr(t, "spillway mcp", stderr.String())
	})
	return s
}

func (s *sandboxed) bash(t *testing.T, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	res := call(t, s.cs, "bash", args)
	return res, text(res)
}

// TestMCPSandboxLDPreloadThroughEnv: bash {env: {LD_PRELOAD}} ran a
// library the agent had built in the root inside the helper, before
// Landlock; it wrote outside the root.
func TestMCPSandboxLDPreloadThroughEnv(t *testing.T) {
	sandboxLayers(t)
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	s := startSandboxed(t)
	mark := filepath.Join(s.outside, "preloaded")
	src := `#include <stdio.h>
__attribute__((constructor)) static void evil(void) {
	FILE *f = fopen("` + mark + `", "a");
	if (f) { fputs("written\n", f); fclose(f); }
}`
	if _, out := s.bash(t, map[string]any{"command": "cat > evil.c <<'EOF'\n" + src + "\nEOF\ncc -shared -fPIC -o evil.so evil.c && echo built"}); !strings.Contains(out, "built") {
		t.Fatalf("building evil.so in the root: %s", out)
	}
	so := filepath.Join(s.root, "evil.so")
	for _, env := range []map[string]any{
		{"LD_PRELOAD": so},
		{"LD_PRELOAD": so, "LD_LIBRARY_PATH": s.root, "GCONV_PATH": s.root},
	} {
		if _, out := s.bash(t, map[string]any{"command": "echo hello", "env": env}); !strings.Contains(out, "hello") {
			t.Errorf("the command did not run: %s", out)
		}
	}
	if b, err := os.ReadFile(mark); err == nil {
		t.Fatalf("the preloaded library wrote outside the root: %s", b)
	}
}

// TestMCPSandboxCannotSignalTheServer: a sandboxed command could
// `kill -STOP` the server that runs it.
func TestMCPSandboxCannotSignalTheServer(t *testing.T) {
	ls := sandboxLayers(t)
	if ls&(sandbox.Namespaces|sandbox.Scopes) == 0 {
		t.Skip("neither namespaces nor Landlock scopes here")
	}
	s := startSandboxed(t)
	server := s.cmd.Process.Pid
	for _, sig := range []string{"STOP", "TERM", "KILL"} {
		_, out := s.bash(t, map[string]any{"command": fmt.Sprintf("kill -%s %d; echo status=$?", sig, server)})
		if !strings.Contains(out, "status=1") {
			t.Errorf("kill -%s of the server: %s", sig, out)
		}
	}
	if st, ok := readProcStat(server); !ok || st.state == 'T' {
		t.Fatalf("the server was stopped or killed: %+v %v", st, ok)
	}
	if _, out := s.bash(t, map[string]any{"command": "echo alive"}); !strings.Contains(out, "alive") {
		t.Errorf("the server does not answer: %s", out)
	}
}

// TestMCPSandboxCannotSignalAnotherSession: one session's command could
// kill -9 another session's job.
func TestMCPSandboxCannotSignalAnotherSession(t *testing.T) {
	ls := sandboxLayers(t)
	if ls&(sandbox.Namespaces|sandbox.Scopes) == 0 {
		t.Skip("neither namespaces nor Landlock scopes here")
	}
	a, b := startSandboxed(t), startSandboxed(t)
	res, _ := a.bash(t, map[string]any{"command": "sleep 60", "run_in_background": true})
	pid := int(field(details(t, res), "pid").(float64))
	members := groupMembers(pid)
	if len(members) == 0 {
		t.Fatalf("job %d has no process", pid)
	}
	for _, target := range append([]int{pid}, members...) {
		_, out := b.bash(t, map[string]any{"command": fmt.Sprintf("kill -9 %d; kill -9 -- -%d; echo done", target, pid)})
		if !strings.Contains(out, "done") {
			t.Fatalf("%s", out)
		}
	}
	time.Sleep(100 * time.Millisecond)
	if _, out := a.bash(t, map[string]any{"check_pid": pid}); !strings.Contains(out, "running") {
		t.Errorf("session A's job after session B's kill: %s", out)
	}
}

// TestMCPSandboxNoNetworkClosesUDPAndUnixSockets: --no-network denied TCP
// only: UDP datagrams and connections to abstract Unix sockets outside
// got through.
func TestMCPSandboxNoNetworkClosesUDPAndUnixSockets(t *testing.T) {
	sandboxLayers(t)
	udp, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 100)
		n, _, err := udp.ReadFrom(buf)
		if err == nil {
			got <- string(buf[:n])
		}
	}()
	abstract := "@" + marker("abstract")
	ul, err := net.Listen("unix", abstract)
	if err != nil {
		t.Fatal(err)
	}
	defer ul.Close()
	accepted := make(chan bool, 1)
	go func() {
		if c, err := ul.Accept(); err == nil {
			accepted <- true
			c.Close()
		}
	}()

	s := startSandboxed(t, "--no-network")
	port := udp.LocalAddr().(*net.UDPAddr).Port
	_, out := s.bash(t, map[string]any{"command": fmt.Sprintf("echo leaked > /dev/udp/127.0.0.1/%d && echo sent", port)})
	select {
	case m := <-got:
		t.Errorf("a UDP datagram got out: %q (%s)", m, out)
	case <-time.After(300 * time.Millisecond):
	}
	if _, err := exec.LookPath("python3"); err == nil {
		py := `import socket,sys
s=socket.socket(socket.AF_UNIX)
s.connect("\0"+sys.argv[1][1:])
print("connected")`
		_, out = s.bash(t, map[string]any{"command": "python3 -c '" + py + "' " + abstract})
		select {
		case <-accepted:
			t.Errorf("an abstract Unix socket outside was reached: %s", out)
		case <-time.After(300 * time.Millisecond):
		}
	}
	// Unix sockets of the command's own still work (socketpair, and
	// sockets it makes in the root).
	_, out = s.bash(t, map[string]any{"command": "sort <(echo b; echo a) | tr '\\n' ' '"})
	if !strings.Contains(out, "a b") {
		t.Errorf("process substitution: %s", out)
	}
}

// TestMCPSandboxKilledServerLeavesNoGrandchild: after SIGKILL of the
// server, the parent-death signal reached only the shell; its children
// lived on.
func TestMCPSandboxKilledServerLeavesNoGrandchild(t *testing.T) {
	if sandboxLayers(t)&sandbox.Namespaces == 0 {
		t.Skip("no namespaces here")
	}
	s := startSandboxed(t)
	m := "4" + strconv.FormatInt(time.Now().UnixNano()%1000000, 10) + ".25"
	s.bash(t, map[string]any{"command": "(sleep " + m + " &); (setsid sleep " + m + " &); sleep " + m, "run_in_background": true})
	waitFor(t, "the sleepers", func() bool { return len(sleepers(m)) == 3 })
	s.cmd.Process.Kill()
	deadline := time.Now().Add(10 * time.Second)
	for len(sleepers(m)) > 0 {
		if time.Now().After(deadline) {
			left := sleepers(m)
			for _, p := range left {
				syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("processes %v outlived the killed server", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sleepers are the live processes running `sleep m`.
func sleepers(m string) []int {
	var out []int
	for _, pid := range allPids() {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && bytes.Equal(data, []byte("sleep\x00"+m+"\x00")) {
			if st, ok := readProcStat(pid); ok && st.state != 'Z' {
				out = append(out, pid)
			}
		}
	}
	return out
}
