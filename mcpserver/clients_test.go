package mcpserver_test

// What the model reads in each major MCP client. Every client below turns
// a tool result into the model's tool_result by a rule of its own; the
// rules are written out (with their sources) in docs/mcp.md, and each is
// applied here to spillway's real responses. The rendered text, the same
// text `spillway TOOL ...` prints, must reach the model plain and once.

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A modelView is what a client gives the model for one tool result.
type modelView struct {
	text   string
	images [][]byte
	// err is set when the client rejects the result instead of passing it on.
	err string
}

// A clientRule is one client's documented way from a tool result to the
// model's view. outputSchema is the tool's, from tools/list (nil if none).
type clientRule struct {
	name string
	see  func(res *mcp.CallToolResult, outputSchema any) modelView
}

// preferStructured is the rule of Claude Code, Codex and opencode: a
// non-null structuredContent, serialized as JSON, replaces the content;
// otherwise the text blocks reach the model as text and the images as
// images.
func preferStructured(res *mcp.CallToolResult, _ any) modelView {
	if res.StructuredContent != nil {
		data, _ := json.Marshal(res.StructuredContent)
		if string(data) != "null" {
			return modelView{text: string(data)}
		}
	}
	return contentBlocks(res)
}

// contentBlocks passes the text blocks (one after the other) and the
// images on.
func contentBlocks(res *mcp.CallToolResult) modelView {
	var v modelView
	var texts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			texts = append(texts, c.Text)
		case *mcp.ImageContent:
			v.images = append(v.images, c.Data)
		}
	}
	v.text = strings.Join(texts, "\n")
	return v
}

// vscode is the rule of VS Code's MCP tools (Copilot agent mode): text
// blocks reach the model only when there is no structuredContent; images
// are inlined; a structuredContent is added as JSON text.
func vscode(res *mcp.CallToolResult, _ any) modelView {
	var v modelView
	var texts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			if res.StructuredContent == nil {
				texts = append(texts, c.Text)
			}
		case *mcp.ImageContent:
			v.images = append(v.images, c.Data)
		}
	}
	if res.StructuredContent != nil {
		data, _ := json.Marshal(res.StructuredContent)
		texts = append(texts, string(data))
	}
	v.text = strings.Join(texts, "\n")
	return v
}

// sdkClient is the default handling of the TypeScript and Python SDKs'
// clients: callTool / call_tool return the result as it came, after
// checking it against the tool's outputSchema (a tool that declares one
// and returns no structuredContent is an error); a program gives the model
// the content blocks.
func sdkClient(res *mcp.CallToolResult, outputSchema any) modelView {
	if outputSchema != nil && res.StructuredContent == nil && !res.IsError {
		return modelView{err: "tool has an output schema but did not return structured content"}
	}
	return contentBlocks(res)
}

var clientRules = []clientRule{
	{"claude-code", preferStructured},
	{"codex", preferStructured},
	{"opencode", preferStructured},
	{"vscode", vscode},
	{"typescript-sdk", sdkClient},
	{"python-sdk", sdkClient},
}

// A clientCase is one tool call, and the CLI command that prints the text
// the model should read.
type clientCase struct {
	name  string
	tool  string
	args  map[string]any
	cli   []string
	image []byte // the image the model should see, if any
}

func writePNG(t *testing.T, path string) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func clientCases(t *testing.T) []clientCase {
	dir := t.TempDir()
	// Quotes, backslashes, tabs and non-ASCII: what JSON escaping would change.
	body := "package main\n\nfunc main() {\n\tprintln(\"héllo\\n\")\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "notes.txt"), []byte("say \"héllo\"\n"), 0o644)
	pic := writePNG(t, filepath.Join(dir, "pic.png"))
	cmd := `printf 'alpha "quoted"\n\tbeta \\ é\n'; echo 'err <&>' >&2`
	return []clientCase{
		{"bash", "bash", map[string]any{"command": cmd}, []string{"bash", cmd}, nil},
		{"read", "read", map[string]any{"path": filepath.Join(dir, "main.go")}, []string{"read", filepath.Join(dir, "main.go")}, nil},
		{"read-png", "read", map[string]any{"path": filepath.Join(dir, "pic.png")}, nil, pic},
		{"grep", "grep", map[string]any{"pattern": "héllo", "path": dir}, []string{"grep", "héllo", dir}, nil},
		{"find", "find", map[string]any{"pattern": "*", "path": dir}, []string{"find", "*", dir}, nil},
		{"ls", "ls", map[string]any{"path": dir}, []string{"ls", dir}, nil},
	}
}

// cliText returns what `spillway ARGS...` prints: the text the model should
// read.
func cliText(t *testing.T, args []string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = serverEnv(t.TempDir())
	out, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("spillway %q: %v", args, err)
	}
	return string(out)
}

func TestModelReadsTheTextInEveryClient(t *testing.T) {
	t.Parallel()
	cs := connectStdio(t, t.TempDir(), nil)
	tools, err := cs.ListTools(testContext(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]any{}
	for _, tool := range tools.Tools {
		schemas[tool.Name] = tool.OutputSchema
	}
	for _, c := range clientCases(t) {
		res := call(t, cs, c.tool, c.args)
		if res.IsError {
			t.Fatalf("%s: %s", c.name, text(res))
		}
		want := ""
		if c.cli != nil {
			// The CLI ends what it prints with a newline.
			want = text(res)
			if cli := cliText(t, c.cli); want == "" || strings.TrimSuffix(cli, "\n") != strings.TrimSuffix(want, "\n") {
				t.Fatalf("%s: the MCP text %q is not the CLI's %q", c.name, want, cli)
			}
		}
		for _, rule := range clientRules {
			t.Run(rule.name+"/"+c.name, func(t *testing.T) {
				v := rule.see(res, schemas[c.tool])
				if v.err != "" {
					t.Fatalf("the client rejects the result: %s", v.err)
				}
				if want != "" {
					if n := strings.Count(v.text, want); n != 1 {
						t.Errorf("the rendered text appears %d times in what the model reads, want once:\n%s", n, v.text)
					}
					escaped, _ := json.Marshal(want)
					if inner := string(escaped[1 : len(escaped)-1]); inner != want && strings.Contains(v.text, inner) {
						t.Errorf("the model reads the text JSON-escaped:\n%s", v.text)
					}
				}
				if c.image != nil {
					if len(v.images) != 1 || !bytes.Equal(v.images[0], c.image) {
						t.Errorf("the model sees %d images, want the PNG once", len(v.images))
					}
				} else if len(v.images) != 0 {
					t.Errorf("the model sees %d images, want none", len(v.images))
				}
			})
		}
	}
}

// With --typed-results, each tool declares an outputSchema and each result
// carries {"text", "details"} as structuredContent: what a program that
// validates results wants, and what the clients above then show the model
// (the text inside JSON). The default stays untyped for that reason.
func TestTypedResults(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(bin, "mcp", "--typed-results")
	cmd.Env = serverEnv(t.TempDir())
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(testContext(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema with --typed-results", tool.Name)
		}
	}
	res := call(t, cs, "bash", map[string]any{"command": "echo typed"})
	sc, _ := res.StructuredContent.(map[string]any)
	if sc == nil || sc["text"] != text(res) || field(sc, "details.exit_code") != 0.0 {
		t.Fatalf("structuredContent = %v, want the text %q and the details", res.StructuredContent, text(res))
	}
	// The details are under _meta in typed results too.
	if d := details(t, res); d["exit_code"] != 0.0 {
		t.Errorf("_meta details = %v", d)
	}
	// What Claude Code, Codex and opencode then show the model: the text,
	// JSON-escaped, inside the object.
	v := preferStructured(res, nil)
	if strings.Contains(v.text, "stdout:\ntyped") || !strings.Contains(v.text, `stdout:\ntyped`) {
		t.Errorf("typed result as the model reads it: %s", v.text)
	}
}
