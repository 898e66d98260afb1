package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway/internal/hermetic"
	"github.com/spillway-dev/spillway/mcpserver"
)

// bin is the spillway binary built by TestMain, with buildFlags.
var (
	bin        string
	buildFlags []string
)

func TestMain(m *testing.M) {
	done := hermetic.Setup()
	dir, err := os.MkdirTemp("", "spillway-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "spillway")
	args := append(append([]string{"build"}, buildFlags...), "-o", bin, "github.com/spillway-dev/spillway/cmd/spillway")
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building spillway: %v\n%s", err, out)
		done()
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	done()
	os.Exit(code)
}

// hangGuard bounds every wait of these tests: long enough never to fail a
// correct server on a loaded machine, short enough not to hang the suite.
const hangGuard = 30 * time.Second

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	t.Cleanup(cancel)
	return ctx
}

// serverEnv is the environment of a server under test: its own TMPDIR, so
// that its spill directories can be watched.
func serverEnv(tmp string, extra ...string) []string {
	return append(append(os.Environ(), "TMPDIR="+tmp), extra...)
}

// A lockedBuffer collects a server's stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// connectStdio starts `spillway mcp` and connects an SDK client to it.
func connectStdio(t *testing.T, tmp string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectStdioArgs(t, tmp, opts)
}

// connectStdioArgs starts `spillway ARGS... mcp` and connects an SDK
// client to it.
func connectStdioArgs(t *testing.T, tmp string, opts *mcp.ClientOptions, args ...string) *mcp.ClientSession {
	t.Helper()
	return connectStdioAs(t, "test", tmp, opts, args...)
}

// connectStdioAs is connectStdioArgs with a client that names itself
// name in initialize.
func connectStdioAs(t *testing.T, name, tmp string, opts *mcp.ClientOptions, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, append(args, "mcp")...)
	cmd.Env = serverEnv(tmp)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, opts).
		Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to spillway %q mcp as %s: %v\nstderr:\n%s", args, name, err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		checkStderr(t, "spillway mcp", stderr.String())
	})
	return cs
}

// An httpServer is a running `spillway serve`.
type httpServer struct {
	url    string
	cmd    *exec.Cmd
	stderr *lockedBuffer
	tmp    string
}

// startHTTP starts `spillway serve --listen 127.0.0.1:0 args...` and waits
// for it to say where it serves.
//
// Without --drain-timeout in args, it passes --drain-timeout=0. Without a token in args or env, it passes --no-token: the tests of
// the token made by default start their own server.
func startHTTP(t *testing.T, env []string, args ...string) *httpServer {
	t.Helper()
	tmp := t.TempDir()
	if !slices.Contains(args, "--token") && !slices.Contains(args, "--token-file") && !slices.ContainsFunc(env, func(e string) bool { return strings.HasPrefix(e, "SPILLWAY_TOKEN=") && e != "SPILLWAY_TOKEN=" }) {
		args = append(args, "--no-token")
	}
	if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--drain-timeout") }) {
		// SIGTERM ends the tests' servers at once; the drain tests ask
		// for one.
		args = append(args, "--drain-timeout=0")
	}
	cmd := exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = serverEnv(tmp, env...)
	pr, pw := io.Pipe()
	stderr := &lockedBuffer{}
	cmd.Stderr = io.MultiWriter(stderr, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &httpServer{cmd: cmd, stderr: stderr, tmp: tmp}
	t.Cleanup(func() {
		if cmd.ProcessState == nil { // the test has not waited for it
			cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(hangGuard):
				cmd.Process.Kill()
				t.Errorf("spillway serve did not exit on SIGTERM")
			}
		}
		pw.Close()
		checkStderr(t, "spillway serve", stderr.String())
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "serving MCP at "); ok {
				found <- url
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case s.url = <-found:
	case <-time.After(hangGuard):
		t.Fatalf("spillway serve did not start; stderr:\n%s", stderr)
	}
	return s
}

// headerTransport adds a header to every request.
type headerTransport struct {
	header http.Header
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.header {
		r.Header[k] = v
	}
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects an SDK client to url.
func connectHTTP(t *testing.T, url string, opts *mcp.ClientOptions, header http.Header, noStandaloneSSE bool) *mcp.ClientSession {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, DisableStandaloneSSE: noStandaloneSSE}
	if header != nil {
		tr.HTTPClient = &http.Client{Transport: headerTransport{header}}
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts).Connect(testContext(t), tr, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return res
}

// text returns the text content of a result.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// details returns the details of a result (under _meta) as a JSON object.
func details(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	data, err := json.Marshal(res.Meta[mcpserver.DetailsMetaKey])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		t.Fatalf("_meta[%q] is not an object: %s\n%s", mcpserver.DetailsMetaKey, data, text(res))
	}
	return m
}

// field returns the value at a dotted path of a details object.
func field(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = obj[k]
	}
	return v
}

func marker(name string) string {
	return fmt.Sprintf("spillway-test-%s-%d", name, rand.Uint64())
}

// procStat holds what the tests need of /proc/PID/stat.
type procStat struct {
	pid, pgrp int
	state     byte
}

func readProcStat(pid int) (procStat, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, false
	}
	// pid (comm) state ppid pgrp ...: comm may hold spaces and parens.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 3 {
		return procStat{}, false
	}
	pgrp, _ := strconv.Atoi(f[2])
	return procStat{pid: pid, pgrp: pgrp, state: f[0][0]}, true
}

func allPids() []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// pidWithCmdline returns a live process whose command line contains s.
func pidWithCmdline(s string) (int, bool) {
	for _, pid := range allPids() {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && bytes.Contains(data, []byte(s)) {
			if st, ok := readProcStat(pid); ok && st.state != 'Z' {
				return pid, true
			}
		}
	}
	return 0, false
}

// groupMembers returns the live (not zombie) processes of group pgid.
func groupMembers(pgid int) []int {
	var out []int
	for _, pid := range allPids() {
		if st, ok := readProcStat(pid); ok && st.pgrp == pgid && st.state != 'Z' {
			out = append(out, pid)
		}
	}
	return out
}

// waitFor polls cond until it holds or the hang guard passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitForGroup waits until the bash of the command marked m runs with at
// least n processes in its group, and returns the group id.
func waitForGroup(t *testing.T, m string, n int) int {
	t.Helper()
	var pgid int
	waitFor(t, "the command's processes to start", func() bool {
		pid, ok := pidWithCmdline(m)
		if !ok {
			return false
		}
		st, ok := readProcStat(pid)
		if !ok {
			return false
		}
		pgid = st.pgrp
		return len(groupMembers(pgid)) >= n
	})
	return pgid
}

// waitGroupGone waits until no live process is left in group pgid.
func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("process group %d to die", pgid), func() bool { return len(groupMembers(pgid)) == 0 })
}

// checkStderr fails the test on a data race the server reported, and shows
// the server's log when the test failed.
func checkStderr(t *testing.T, name, stderr string) {
	if strings.Contains(stderr, "WARNING: DATA RACE") {
		t.Errorf("%s reported a data race", name)
	}
	if t.Failed() {
		t.Logf("%s stderr:\n%s", name, stderr)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
