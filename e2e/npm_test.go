package e2e

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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
