package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The clients are found through these variables; .ci/run installs them
// from npm and sets them. Unset, the tests skip: they drive real programs
// that are not part of this module.
const (
	claudeEnv = "SPILLWAY_E2E_CLAUDE" // path of Claude Code's `claude`
	codexEnv  = "SPILLWAY_E2E_CODEX"  // path of Codex's `codex`
)

// A workspace is a directory with files for every tool to find, and the
// spillway binary built from this module.
type workspace struct {
	dir      string
	spillway string
}

func newWorkspace(t *testing.T) workspace {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("notes.txt", "first line\nsecond line with a needle\nthird line\n")
	write("src/main.go", "package main\n\n// needle: the thing to find\nfunc main() {}\n")
	write("src/util/strings.go", "package util\n\nconst Needle = \"needle\"\n")
	var img bytes.Buffer
	m := image.NewRGBA(image.Rect(0, 0, 4, 4))
	m.Set(1, 1, color.RGBA{255, 0, 0, 255})
	if err := png.Encode(&img, m); err != nil {
		t.Fatal(err)
	}
	write("pixel.png", img.String())

	bin := filepath.Join(t.TempDir(), "spillway")
	build := exec.Command("go", "build", "-o", bin, "./cmd/spillway")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building spillway: %v\n%s", err, out)
	}
	return workspace{dir: dir, spillway: bin}
}

// cli returns what `spillway ARGS…` prints in the workspace: the text the
// model should read, rendered by the same code the server uses.
func (w workspace) cli(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(w.spillway, args...)
	cmd.Dir = w.dir
	out, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("spillway %q: %v", args, err)
	}
	return strings.TrimRight(string(out), "\n")
}

// A check is one tool call and what the model must read from it.
type check struct {
	name string
	call call
	// want is text the model must see exactly once, plain; cli, when
	// set, computes it by running the same call through the CLI.
	cli    []string
	images int // image blocks the model must get
	// also runs further checks on what the model read.
	also func(t *testing.T, c client, text string)
}

// checks are the calls every client is put through: each tool, both
// streams of bash, text and image reads, and a flood on both streams.
func checks() []check {
	return []check{
		{name: "bash both streams",
			call: call{"bash", map[string]any{"command": "printf 'alpha\\nbeta\\n'; echo err >&2"}},
			cli:  []string{"bash", "printf 'alpha\\nbeta\\n'; echo err >&2"}},
		{name: "read text",
			call: call{"read", map[string]any{"path": "notes.txt"}},
			cli:  []string{"read", "notes.txt"}},
		{name: "read png",
			call:   call{"read", map[string]any{"path": "pixel.png"}},
			images: 1},
		{name: "grep",
			call: call{"grep", map[string]any{"pattern": "needle", "path": "."}},
			cli:  []string{"grep", "needle", "."}},
		{name: "find",
			call: call{"find", map[string]any{"pattern": "*.go"}},
			cli:  []string{"find", "*.go"}},
		{name: "ls",
			call: call{"ls", map[string]any{"path": "."}},
			cli:  []string{"ls", "."}},
		{name: "flood on both streams",
			call: call{"bash", map[string]any{"command": "seq 1 300000; seq 1 300000 >&2"}},
			also: checkFlood("1", "300000")},
		{name: "wide flood on both streams",
			call: call{"bash", map[string]any{"command": "seq -f '%080g' 1 300000; seq -f '%080g' 1 300000 >&2"}},
			also: checkFlood(fmt.Sprintf("%080d", 1), fmt.Sprintf("%080d", 300000))},
		{name: "failing wide flood on both streams",
			call: call{"bash", map[string]any{"command": "seq -f '%080g' 1 300000; seq -f '%080g' 1 300000 >&2; exit 1"}},
			also: checkFlood(fmt.Sprintf("%080d", 1), fmt.Sprintf("%080d", 300000))},
	}
}

// checkFlood: the result of a flood on both streams fits what the client
// puts in front of the model, and still shows each stream's first and
// last line and its notice with the spill file.
func checkFlood(first, last string) func(t *testing.T, c client, text string) {
	return func(t *testing.T, c client, text string) {
		t.Helper()
		limit, marker := c.limit, c.cutMarker
		if c.errorLimit > 0 && strings.Contains(text, "\nexit code: 1") {
			limit, marker = c.errorLimit, c.errorCutMarker
		}
		if n := len([]rune(text)); n > limit {
			t.Errorf("the model read %d characters, over the %d %s lets through whole", n, limit, c.name)
		}
		if marker != "" && strings.Contains(text, marker) {
			t.Errorf("%s cut the result itself (%q): the model did not read spillway's own cut", c.name, marker)
		}
		for _, stream := range []string{"stdout", "stderr"} {
			re := regexp.MustCompile(`(?m)^` + stream + `:\n` + first + `\n(?s:.*)\n` + last + `\n\[` + stream + `: [^\n]*Full output: /[^\n\]]+\]`)
			if !re.MatchString(text) {
				t.Errorf("%s: first or last line, or the notice with the spill file, missing from what the model read", stream)
			}
		}
	}
}

// run puts a client through the checks and returns what its model read
// for each, in order.
type client struct {
	name string
	env  string
	// toolName and namespace say how the client names spillway's tools
	// to the model.
	toolName  func(string) string
	namespace string
	// offered is a tool name the client must offer the model, to make
	// sure the naming above still holds.
	offered string
	// limit is the most characters of one tool result the client puts in
	// front of the model as they are; cutMarker, when not empty, is what
	// the client writes where it cut a longer one.
	limit     int
	cutMarker string
	// errorLimit and errorCutMarker are the same for an isError result,
	// when the client treats one differently.
	errorLimit     int
	errorCutMarker string
	run            func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd
}

var claudeCode = client{
	name:     "Claude Code",
	env:      claudeEnv,
	toolName: func(tool string) string { return "mcp__spillway__" + tool },
	offered:  "mcp__spillway__bash",
	// A larger result is kept out of the context, in a file of Claude
	// Code's, and the model gets a 2 KB preview of its JSON instead.
	limit:     50000,
	cutMarker: "<persisted-output>",
	// Of an isError result it keeps the first and last 5,000 characters.
	errorLimit:     10000,
	errorCutMarker: "characters truncated] ...",
	run: func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		return claudeCommand(ctx, t, bin, api, w.spillway)
	},
}

// claudeCommand is Claude Code headless against the stand-in at api:
// with spillway as its one MCP server and only spillway's tools allowed,
// or, when spillway is empty, with no MCP server and its own Bash
// allowed.
func claudeCommand(ctx context.Context, t *testing.T, bin, api, spillway string) *exec.Cmd {
	servers := map[string]any{}
	allowed := "Bash"
	if spillway != "" {
		servers["spillway"] = map[string]any{"command": spillway, "args": []string{"mcp"}}
		allowed = "mcp__spillway"
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": servers})
	cmd := exec.CommandContext(ctx, bin, "-p", "use the spillway tools",
		"--mcp-config", string(cfg), "--strict-mcp-config",
		"--allowedTools", allowed, "--output-format", "json")
	cmd.Env = append(cleanEnv(t),
		"ANTHROPIC_BASE_URL="+api,
		"ANTHROPIC_API_KEY=sk-ant-stand-in",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		// MCP tools in the prompt, not deferred behind ToolSearch:
		// the stand-in calls them as a model that has them would.
		"ENABLE_TOOL_SEARCH=false",
		"DISABLE_AUTOUPDATER=1",
	)
	return cmd
}

var codex = client{
	name:      "Codex",
	env:       codexEnv,
	toolName:  func(tool string) string { return tool },
	namespace: "mcp__spillway",
	offered:   "mcp__spillway/bash",
	// Measured with 0.169.0: a text result of 11,055 characters reaches
	// the model whole, one of 12,018 is cut in the middle, whatever the
	// model (about 3,000 tokens at Codex's four bytes a token).
	limit:     11000,
	cutMarker: "tokens truncated",
	run: func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		return codexCommand(ctx, t, bin, api, "gpt-5", w.spillway)
	},
}

// codexCommand is Codex headless against the stand-in at api, asking for
// model: with spillway as an MCP server whose tools need no approval,
// or, when spillway is empty, with its own tools only and no sandbox
// (a command runs as the user's shell would run it, whatever namespaces
// the machine allows).
func codexCommand(ctx context.Context, t *testing.T, bin, api, model, spillway string) *exec.Cmd {
	return codexCommandWith(ctx, t, bin, api, model, spillway, "")
}

// codexCommandWith is codexCommand with extra lines of config.toml,
// written before the tables codexCommand writes.
func codexCommandWith(ctx context.Context, t *testing.T, bin, api, model, spillway, extra string) *exec.Cmd {
	home := t.TempDir()
	cfg := fmt.Sprintf(`model = %q
model_provider = "standin"
`, model) + extra + fmt.Sprintf(`

[model_providers.standin]
name = "stand-in"
base_url = %q
wire_api = "responses"
env_key = "STANDIN_KEY"
`, api+"/v1")
	args := []string{"exec", "--skip-git-repo-check"}
	if spillway != "" {
		cfg += fmt.Sprintf(`
[mcp_servers.spillway]
command = %q
args = ["mcp"]
default_tools_approval_mode = "approve"
`, spillway)
	} else {
		args = append(args, "--sandbox", "danger-full-access")
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, append(args, "use the spillway tools")...)
	cmd.Env = append(cleanEnv(t), "CODEX_HOME="+home, "STANDIN_KEY=stand-in")
	return cmd
}

// cleanEnv is the test's environment with a home of its own, so that no
// user configuration of the clients takes part.
func cleanEnv(t *testing.T) []string {
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "XDG_CONFIG_HOME", strings.HasPrefix(k, "ANTHROPIC_"),
			strings.HasPrefix(k, "OPENAI_"), strings.HasPrefix(k, "CLAUDE"), strings.HasPrefix(k, "CODEX"):
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
}

// clientBin returns the client's binary, or skips the test when it is not
// installed.
func clientBin(t *testing.T, c client) string {
	t.Helper()
	bin := os.Getenv(c.env)
	if bin == "" {
		t.Skipf("set %s to the %s binary to run this test (.ci/run installs it from npm)", c.env, c.name)
	}
	return bin
}

// drive runs the client against a stand-in model API that makes the
// calls, and returns what the client handed back for each.
func drive(t *testing.T, c client, w workspace, calls []call) []seen {
	t.Helper()
	_, got := driveAPI(t, c, w, calls)
	return got
}

// driveAPI is drive, returning the stand-in too: what the client offered
// the model is on it.
func driveAPI(t *testing.T, c client, w workspace, calls []call) (*modelAPI, []seen) {
	t.Helper()
	bin := clientBin(t, c)
	api := &modelAPI{t: t, script: calls, toolName: c.toolName, namespace: c.namespace}
	addr, stop := serveModelAPI(t, api)
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := c.run(ctx, t, bin, "http://"+addr, w)
	cmd.Dir = w.dir
	// As a shell would start the client in the workspace: opencode takes
	// its project directory from $PWD.
	cmd.Env = append(cmd.Env, "PWD="+w.dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if dump := os.Getenv("SPILLWAY_E2E_DUMP"); dump != "" {
		os.WriteFile(dump+".log", out.Bytes(), 0o644)
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", c.name, err, tail(out.String(), 3000))
	}
	if c.offered != "" && !contains(api.offered, c.offered) {
		t.Fatalf("%s did not offer the model %s; it offered %v", c.name, c.offered, api.offered)
	}
	got := api.Results()
	if dump := os.Getenv("SPILLWAY_E2E_DUMP"); dump != "" {
		b, _ := json.MarshalIndent(got, "", " ")
		os.WriteFile(dump, b, 0o644)
	}
	if len(got) != len(calls) {
		t.Fatalf("%s handed back %d of %d results\n%s", c.name, len(got), len(calls), tail(out.String(), 3000))
	}
	return api, got
}

// testClient puts one client through every check: what its model reads
// holds the rendered text plain and exactly once.
func testClient(t *testing.T, c client) {
	clientBin(t, c)
	w := newWorkspace(t)
	cs := checks()
	calls := make([]call, len(cs))
	for i, ch := range cs {
		calls[i] = ch.call
	}
	got := drive(t, c, w, calls)
	for i, ch := range cs {
		t.Run(ch.name, func(t *testing.T) {
			text := got[i].Text()
			if ch.cli != nil {
				want := w.cli(t, ch.cli...)
				if n := strings.Count(text, want); n != 1 {
					t.Errorf("the model read the rendered text %d times, want exactly once.\nrendered:\n%s\nthe model read:\n%s",
						n, tail(want, 2000), tail(text, 2000))
				}
			}
			if got[i].Images < ch.images {
				t.Errorf("the model got %d image blocks, want %d (text: %s)", got[i].Images, ch.images, tail(text, 500))
			}
			if ch.also != nil {
				ch.also(t, c, text)
			}
		})
	}
}

func TestClaudeCode(t *testing.T) { testClient(t, claudeCode) }
func TestCodex(t *testing.T)      { testClient(t, codex) }

// TestCodexLongCommand: Codex gives a tool call 60 s by default. A
// command that runs longer must come back backgrounded, with its pid and
// how to go on, not as Codex's timeout error.
func TestCodexLongCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("takes about a minute")
	}
	clientBin(t, codex)
	w := newWorkspace(t)
	got := drive(t, codex, w, []call{{"bash", map[string]any{"command": "echo started; sleep 75; echo finished"}}})
	text := got[0].Text()
	if !strings.Contains(text, "started") || !strings.Contains(text, "check_pid") {
		t.Errorf("want the output so far and how to check the job; the model read:\n%s", text)
	}
	if strings.Contains(text, "finished") {
		t.Errorf("the call ran to the end instead of coming back backgrounded; the model read:\n%s", text)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
