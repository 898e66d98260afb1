package e2e

import (
	"context"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

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
