package mcpserver_test

// Fuzzing of the MCP argument decoding: any JSON a client sends
// as the arguments of any tool must come back as a result or a JSON-RPC
// error — never a panic, a hang or a dead session — and a result always
// fits the hard ceilings. The starting corpus is in testdata/fuzz/.
//
//	go test ./mcpserver -run '^$' -fuzz FuzzToolArguments -fuzztime 60s
//
// The session's shell is `true` (bash's "command" is never interpreted,
// whatever the fuzzer writes) and its file tools are confined (--root) to a
// small workspace, so that no input can search the whole disk.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/mcpserver"
)

// fuzzToolOrder maps the fuzzer's tool byte to a tool; those the server
// does not list are left out.
var fuzzToolOrder = []string{"bash", "read", "grep", "find", "ls"}

// fuzzResultCeiling bounds the text of any result: two streams at the
// stream ceiling, and room for the notices.
const fuzzResultCeiling = 2*streamCeiling + 64<<10

// fuzzSeeds are typical calls and the edges of each parameter. The same
// inputs are kept in testdata/fuzz/FuzzToolArguments.
var fuzzSeeds = []struct {
	tool uint8
	args string
}{
	{0, `{"command":"echo hi"}`},
	{0, `{"command":"x","timeout":1,"max_lines":1,"max_bytes":1,"full_output":true,"env":{"A":"b"},"cwd":"sub"}`},
	{0, `{"command":"x","run_in_background":true}`},
	{0, `{"check_pid":1}`},
	{0, `{"kill_pid":-1}`},
	{0, `{"command":"x","check_pid":2}`},
	{0, `{}`},
	{0, `{"command":null}`},
	{0, `{"command":"x","timeout":-5}`},
	{0, `{"command":"x","max_bytes":1e300}`},
	{0, `{"command":"x","env":{"":""}}`},
	{0, `{"command":"x","cwd":"../.."}`},
	{0, `{"command":"x","unknown":1}`},
	{1, `{"path":"a.txt"}`},
	{1, `{"path":"a.txt","offset":2,"limit":1,"line_numbers":true}`},
	{1, `{"path":"a.txt","offset":9223372036854775807}`},
	{1, `{"path":"a.txt","offset":-1}`},
	{1, `{"path":"../../etc/passwd"}`},
	{1, `{"path":"/dev/zero"}`},
	{1, `{"path":""}`},
	{1, `{"path":"sub"}`},
	{1, `{"path":1}`},
	{2, `{"pattern":"hello"}`},
	{2, `{"pattern":"(","path":"."}`},
	{2, `{"pattern":"a","literal":true,"ignore_case":true,"context":1000000000,"output_mode":"count","limit":1,"glob":"**/*.txt"}`},
	{2, `{"pattern":"a","output_mode":"files_with_matches","glob":"["}`},
	{2, `{"pattern":"a","output_mode":"nonsense"}`},
	{2, `{"pattern":"","path":"/"}`},
	{3, `{"pattern":"*.txt"}`},
	{3, `{"pattern":"**/","type":"dir","limit":0,"path":"sub"}`},
	{3, `{"pattern":"[","type":"nonsense"}`},
	{4, `{}`},
	{4, `{"path":"sub","limit":-1}`},
	{4, `{"path":"/"}`},
	{4, `[1,2]`},
	{4, `null`},
	{4, `"x"`},
}

// fuzzServer serves one stdio MCP session in this process over pipes and
// returns the client's session to it.
func fuzzServer(f *testing.F) *mcp.ClientSession {
	base := f.TempDir()
	ws := filepath.Join(base, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
		f.Fatal(err)
	}
	for name, content := range map[string]string{
		"a.txt":     "hello\nworld\n",
		"sub/b.txt": strings.Repeat("a line of text\n", 3000),
		"sub/c.bin": "\x00\x01\x02binary",
	} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	p := spillway.DefaultPolicy()
	p.Shell = "true" // the command is never interpreted
	p.Spill.Dir = base
	cfg := mcpserver.Config{
		NewToolset: func(mcpserver.Client) (*spillway.Toolset, error) {
			return spillway.New(spillway.Options{Root: ws, Policy: &p})
		},
		Policy: &p,
	}
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- mcpserver.ServeStdio(ctx, cfg, serverR, serverW) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil)
	cctx, ccancel := context.WithTimeout(ctx, hangGuard)
	defer ccancel()
	sess, err := client.Connect(cctx, &mcp.IOTransport{Reader: clientR, Writer: clientW}, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		sess.Close()
		cancel()
		clientW.Close()
		select {
		case <-served:
		case <-time.After(hangGuard):
			f.Error("the server did not end")
		}
	})
	return sess
}

func FuzzToolArguments(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s.tool, []byte(s.args))
	}
	sess := fuzzServer(f)
	listed, err := sess.ListTools(context.Background(), nil)
	if err != nil {
		f.Fatal(err)
	}
	var tools []string
	for _, name := range fuzzToolOrder {
		for _, t := range listed.Tools {
			if t.Name == name {
				tools = append(tools, name)
			}
		}
	}
	f.Fuzz(func(t *testing.T, tool uint8, args []byte) {
		if !json.Valid(args) {
			t.Skip("not JSON: the client cannot send it")
		}
		name := tools[int(tool)%len(tools)]
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		if ctx.Err() != nil {
			t.Fatalf("%s %s: no answer within %s", name, args, hangGuard)
		}
		var rpcErr *jsonrpc.Error
		switch {
		case errors.As(err, &rpcErr):
			// Refused at the protocol level (invalid params): fine.
		case err != nil:
			t.Fatalf("%s %s: %v", name, args, err)
		default:
			checkFuzzResult(t, name, args, res)
		}
		// The session lives on.
		ok, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "ls", Arguments: map[string]any{}})
		if err != nil || ok.IsError {
			t.Fatalf("after %s %s the session is broken: %v %+v", name, args, err, ok)
		}
	})
}

func checkFuzzResult(t *testing.T, name string, args []byte, res *mcp.CallToolResult) {
	t.Helper()
	if len(res.Content) == 0 {
		t.Fatalf("%s %s: a result without content", name, args)
	}
	size := 0
	text := ""
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			size += len(c.Text)
			text += c.Text
		case *mcp.ImageContent:
			size += len(c.Data)
		}
	}
	if size > fuzzResultCeiling {
		t.Fatalf("%s %s: %d bytes of content, over the ceiling %d", name, args, size, fuzzResultCeiling)
	}
	if res.IsError && strings.TrimSpace(text) == "" {
		t.Fatalf("%s %s: an error that says nothing", name, args)
	}
	if !res.IsError && res.Meta[mcpserver.DetailsMetaKey] == nil {
		t.Fatalf("%s %s: a result without details", name, args)
	}
}

// streamCeiling is the 1 MiB a stream of a result is held to.
const streamCeiling = 1 << 20
