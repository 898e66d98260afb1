package e2e

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The npm packages that npm/build.js makes from the release archives are
// found through this variable: the directory of their tarballs (CI builds
// them with GoReleaser and sets it). Unset, the tests skip.
const npmEnv = "SPILLWAY_E2E_NPM"

// npmPackages is what npm/build.js left: the main package's tarball, the
// platform package's for this machine, and every tarball by package name.
type npmPackages struct {
	version  string
	main     string // @spillway-dev/spillway
	platform string // the one for runtime.GOOS/GOARCH
	byName   map[string]string
	manifest map[string]map[string]any // package.json of each, by name
}

func findNPMPackages(t *testing.T) npmPackages {
	t.Helper()
	dir := os.Getenv(npmEnv)
	if dir == "" {
		t.Skipf("set %s to the directory of the tarballs that npm/build.js makes to run this test (.ci/run does)", npmEnv)
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatalf("%s is set but npm is not on PATH: %v", npmEnv, err)
	}
	tarballs, err := filepath.Glob(filepath.Join(dir, "*.tgz"))
	if err != nil || len(tarballs) == 0 {
		t.Fatalf("no .tgz in %s=%s: run node npm/build.js after the snapshot build", npmEnv, dir)
	}
	p := npmPackages{byName: map[string]string{}, manifest: map[string]map[string]any{}}
	for _, tgz := range tarballs {
		m := packageJSON(t, tgz)
		name, _ := m["name"].(string)
		p.byName[name], p.manifest[name] = tgz, m
	}
	main := p.manifest["@spillway-dev/spillway"]
	if main == nil {
		t.Fatalf("no @spillway-dev/spillway tarball in %s", dir)
	}
	p.main, p.version = p.byName["@spillway-dev/spillway"], main["version"].(string)
	cpu := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	plat := fmt.Sprintf("@spillway-dev/spillway-%s-%s", runtime.GOOS, cpu)
	if p.platform = p.byName[plat]; p.platform == "" {
		t.Skipf("no %s tarball: no prebuilt binary for this platform", plat)
	}
	return p
}

// packageJSON reads package/package.json out of an npm tarball.
func packageJSON(t *testing.T, tgz string) map[string]any {
	t.Helper()
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", tgz, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("%s: no package/package.json (%v)", tgz, err)
		}
		if h.Name == "package/package.json" {
			var m map[string]any
			if err := json.NewDecoder(tr).Decode(&m); err != nil {
				t.Fatalf("%s: package.json: %v", tgz, err)
			}
			return m
		}
	}
}

// npmVars point npm and npx at a cache of the test's own and at registry,
// or, when registry is empty, at a closed port, so that anything that
// would reach the network fails at once instead of using it.
func npmVars(t *testing.T, registry string) []string {
	t.Helper()
	if registry == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		registry = "http://" + ln.Addr().String() + "/"
		ln.Close()
	}
	return []string{
		"npm_config_registry=" + registry,
		"npm_config_cache=" + t.TempDir(),
		"npm_config_fetch_retries=0",
		"npm_config_update_notifier=false",
		"npm_config_audit=false",
		"npm_config_fund=false",
	}
}

// npmEnviron is the test's environment with npmVars(t, "") in place of
// any npm configuration.
func npmEnviron(t *testing.T) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(strings.ToLower(k), "npm_config_") {
			env = append(env, kv)
		}
	}
	return append(env, npmVars(t, "")...)
}

// installOffline installs the main package and this platform's from their
// tarballs into an empty prefix, offline, and returns the prefix.
func installOffline(t *testing.T, p npmPackages, env []string) string {
	t.Helper()
	prefix := t.TempDir()
	cmd := exec.Command("npm", "install", "--offline", "--prefix", prefix, p.main, p.platform)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install --offline from the tarballs: %v\n%s", err, out)
	}
	return prefix
}

// TestNPMInstall: the packages install from their tarballs with no
// registry, and the installed `spillway` — run by npx as a user would —
// prints its version and platform and serves MCP on stdio.
func TestNPMInstall(t *testing.T) {
	p := findNPMPackages(t)
	env := npmEnviron(t)
	prefix := installOffline(t, p, env)

	npx := func(args ...string) *exec.Cmd {
		cmd := exec.Command("npx", append([]string{"--no-install"}, args...)...)
		cmd.Dir, cmd.Env = prefix, env
		return cmd
	}

	out, err := npx("spillway", "version").CombinedOutput()
	if err != nil {
		t.Fatalf("npx spillway version: %v\n%s", err, out)
	}
	want := fmt.Sprintf("spillway %s commit ", p.version)
	platform := runtime.GOOS + "/" + runtime.GOARCH
	first, _, _ := strings.Cut(string(out), "\n")
	if !strings.HasPrefix(first, want) || !strings.HasSuffix(first, " "+platform) {
		t.Errorf("npx spillway version printed %q, want %q… ending in the platform %s", first, want, platform)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "npm-test", Version: "1"}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: npx("spillway", "mcp")}, nil)
	if err != nil {
		t.Fatalf("initialize through npx spillway mcp: %v", err)
	}
	defer session.Close()
	info := session.InitializeResult().ServerInfo
	if info.Version != p.version {
		t.Errorf("the server reports version %q to the client, want the release's %q", info.Version, p.version)
	}
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"bash", "read", "grep", "find", "ls"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list has no %s: %v", want, names)
		}
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "echo through-npm"}})
	if err != nil {
		t.Fatalf("tools/call bash: %v", err)
	}
	if text := resultText(res); !strings.Contains(text, "through-npm") {
		t.Errorf("bash through the npm package returned %q", text)
	}
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestNPMLauncher: the launcher passes the binary's exit code through,
// hands it the signals it gets, and ends by the binary's signal.
func TestNPMLauncher(t *testing.T) {
	p := findNPMPackages(t)
	env := npmEnviron(t)
	prefix := installOffline(t, p, env)
	launcher := filepath.Join(prefix, "node_modules", ".bin", "spillway")

	t.Run("exit code", func(t *testing.T) {
		for args, want := range map[string]int{"version": 0, "bash\x00exit 3": 1, "--no-such-flag": 2} {
			cmd := exec.Command(launcher, strings.Split(args, "\x00")...)
			cmd.Dir, cmd.Env = prefix, env
			err := cmd.Run()
			if got := cmd.ProcessState.ExitCode(); got != want {
				t.Errorf("spillway %q through the launcher exited %d (%v), want %d", args, got, err, want)
			}
		}
	})

	// start runs `spillway mcp` through the launcher, waits for its
	// answer to initialize (the server is up and handles signals), and
	// returns it with the pid of the binary it started.
	start := func(t *testing.T) (*exec.Cmd, int) {
		cmd := exec.Command(launcher, "mcp")
		cmd.Dir, cmd.Env = prefix, env
		stdin, err := cmd.StdinPipe() // held open: the server waits
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if !strings.Contains(line, `"serverInfo"`) {
			t.Fatalf("no answer to initialize through the launcher: %q, %v", line, err)
		}
		if pid := childPid(cmd.Process.Pid); pid > 0 {
			return cmd, pid
		}
		t.Fatal("the launcher has no child process")
		return nil, 0
	}

	t.Run("SIGTERM reaches the binary", func(t *testing.T) {
		cmd, bin := start(t)
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		if cmd.ProcessState.ExitCode() != 0 {
			t.Errorf("after SIGTERM the launcher ended with %v; spillway mcp exits 0 on SIGTERM", err)
		}
		if syscall.Kill(bin, 0) == nil {
			t.Errorf("the binary (pid %d) outlived the launcher", bin)
		}
	})

	t.Run("the binary's signal", func(t *testing.T) {
		cmd, bin := start(t)
		syscall.Kill(bin, syscall.SIGKILL)
		cmd.Wait()
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Errorf("the binary died of SIGKILL; the launcher ended with %v", cmd.ProcessState)
		}
	})
}

// childPid returns the pid of a child of pid, or 0.
func childPid(pid int) int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		if fields := strings.Fields(string(b)); len(fields) > 0 {
			var child int
			fmt.Sscan(fields[0], &child)
			return child
		}
	}
	return 0
}

// TestNPMClaudeCode: the one-line install of docs/install.md, `claude mcp
// add spillway -- npx -y @spillway-dev/spillway mcp`, with npx fetching
// from a stand-in registry on 127.0.0.1 that serves the built tarballs,
// as it would from npm's: npx resolves the package, npm picks this
// platform's binary among the optional dependencies, and Claude Code's
// headless run calls spillway through it.
func TestNPMClaudeCode(t *testing.T) {
	p := findNPMPackages(t)
	clientBin(t, claudeCode)
	registry := serveRegistry(t, p)
	w := workspace{dir: t.TempDir()}

	c := claudeCode
	c.run = func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		// Later values win: npm is configured by these alone.
		env := append(cleanEnv(t), npmVars(t, registry)...)
		env = append(env,
			"ANTHROPIC_BASE_URL="+api,
			"ANTHROPIC_API_KEY=sk-ant-stand-in",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			"ENABLE_TOOL_SEARCH=false",
			"DISABLE_AUTOUPDATER=1",
			// npx installs the package on the first start. Without
			// --mcp-config Claude Code (2.1.330) sends the first request
			// without waiting for a server still starting, and offers
			// the model a tool to wait with instead: make it wait, and
			// long enough on a loaded machine.
			"CLAUDE_CODE_MCP_STARTUP_WAIT_MS=120000",
			"MCP_TIMEOUT=120000",
		)
		add := exec.CommandContext(ctx, bin, "mcp", "add", "spillway", "--", "npx", "-y", "@spillway-dev/spillway", "mcp")
		add.Dir, add.Env = w.dir, env
		if out, err := add.CombinedOutput(); err != nil {
			t.Fatalf("claude mcp add: %v\n%s", err, out)
		}
		cmd := exec.CommandContext(ctx, bin, "-p", "use the spillway tools",
			"--allowedTools", "mcp__spillway", "--output-format", "json")
		cmd.Env = env
		return cmd
	}
	got := drive(t, c, w, []call{{"bash", map[string]any{"command": "printf 'alpha\\nbeta\\n'; uname -s"}}})
	text := got[0].Text()
	if !strings.Contains(text, "alpha\nbeta\n") {
		t.Errorf("the model did not read the command's output; it read:\n%s", text)
	}
}

// serveRegistry serves the tarballs as an npm registry does: a packument
// per package at /NAME (a scoped name's slash escaped or not) naming each
// tarball with its integrity, and the tarballs themselves.
func serveRegistry(t *testing.T, p npmPackages) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	docs := map[string][]byte{}
	files := map[string]string{}
	for name, tgz := range p.byName {
		b, err := os.ReadFile(tgz)
		if err != nil {
			t.Fatal(err)
		}
		s512, s1 := sha512.Sum512(b), sha1.Sum(b)
		file := "/-/" + filepath.Base(tgz)
		files[file] = tgz
		version := p.manifest[name]
		version["dist"] = map[string]any{
			"tarball":   base + file,
			"integrity": "sha512-" + base64.StdEncoding.EncodeToString(s512[:]),
			"shasum":    hex.EncodeToString(s1[:]),
		}
		v := version["version"].(string)
		docs[name], _ = json.Marshal(map[string]any{
			"name":      name,
			"dist-tags": map[string]string{"latest": v},
			"versions":  map[string]any{v: version},
		})
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tgz, ok := files[r.URL.Path]; ok {
			http.ServeFile(w, r, tgz)
			return
		}
		name, _ := url.PathUnescape(strings.TrimPrefix(r.URL.EscapedPath(), "/"))
		if doc, ok := docs[name]; ok {
			w.Header().Set("Content-Type", "application/json")
			w.Write(doc)
			return
		}
		http.NotFound(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return base + "/"
}
