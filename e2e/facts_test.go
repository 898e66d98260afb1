package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/factcorpus"
)

// factsEnv opts in to TestFactsThroughClients: 68 tool calls through
// four client sessions, each a megabyte-sized output.
const factsEnv = "SPILLWAY_E2E_FACTS"

// codexFactsModel is the model Codex is asked for in the facts
// measurement: the newest of Codex's own catalog that calls its tools
// directly. Its default (gpt-6.1-sol) and the other GPT-6 models call
// them from JavaScript they write (code mode), and what reaches such a
// model of a command's output is what its script returns, not a text
// of the client's.
const codexFactsModel = "gpt-5.5"

// A factsClient is a client measured on the facts corpus: through its
// own shell tool and through spillway's bash as an MCP server.
type factsClient struct {
	name    string // as spillway's --client names it
	mcp     client // the client with spillway as its MCP server
	own     client // the same client with its own shell tool
	ownCall func(command string) call
	// exitImplied: the client shows a success as a result that is not an
	// error, without an exit code, so the model knows the command
	// succeeded.
	exitImplied bool
}

func factsClients() []factsClient {
	cc := claudeCode
	cc.name, cc.toolName, cc.offered = "Claude Code's Bash", func(s string) string { return s }, "Bash"
	cc.run = func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		return claudeCommand(ctx, t, bin, api, "")
	}
	cx := codex
	// For this model Codex defers MCP tools behind its tool_search: the
	// stand-in calls spillway's bash directly, as a model would once it
	// found it, and Codex runs the call.
	cx.offered = ""
	cx.run = func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		return codexCommand(ctx, t, bin, api, codexFactsModel, w.spillway)
	}
	cxOwn := codex
	cxOwn.name, cxOwn.toolName, cxOwn.namespace, cxOwn.offered = "Codex's exec_command", func(s string) string { return s }, "", "exec_command"
	cxOwn.run = func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		return codexCommand(ctx, t, bin, api, codexFactsModel, "")
	}
	return []factsClient{
		{name: "claude-code", mcp: claudeCode, own: cc, exitImplied: true,
			ownCall: func(command string) call {
				return call{"Bash", map[string]any{"command": command, "description": "Run the command"}}
			}},
		{name: "codex", mcp: cx, own: cxOwn,
			ownCall: func(command string) call {
				return call{"exec_command", map[string]any{"cmd": command}}
			}},
	}
}

// TestFactsThroughClients scores the facts corpus (testdata/facts) by
// what each real client hands its model: the client's own shell tool
// running each case's script, and spillway's bash (the default profile)
// as the client's MCP server running the same. It logs, per case, the
// facts kept and the characters spent beside bench/facts' figures for
// the same case (its model of the client's own tool, and spillway's CLI
// fitted to the client), counted by the same code.
//
// It fails when a fact spillway's CLI text holds does not reach the
// model through the client, or when bench/facts' model of the client's
// own tool gives another text than the client does, but for the paths,
// ids and times the client makes up.
func TestFactsThroughClients(t *testing.T) {
	if os.Getenv(factsEnv) == "" {
		t.Skipf("set %s=1 to measure the facts corpus through the clients", factsEnv)
	}
	cases, err := factcorpus.Load("../testdata/facts")
	if err != nil {
		t.Fatal(err)
	}
	w := newWorkspace(t)
	w.dir = copyCorpus(t, "../testdata/facts")
	for _, fc := range factsClients() {
		t.Run(fc.name, func(t *testing.T) {
			clientBin(t, fc.mcp)
			measureFacts(t, fc, w, cases)
		})
	}
}

// copyCorpus copies the corpus to a directory of the test's: the
// clients run in it and may write there.
func copyCorpus(t *testing.T, from string) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		to := filepath.Join(dir, rel)
		if info.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// madeUp replaces what a client makes up for each call (the path of the
// file Claude Code saves a long output to, Codex's chunk id and wall
// time) with the model's, so that the rest compares text for text.
var madeUp = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`Full output saved to: \S+`), "Full output saved to: " + factcorpus.ClaudeCodePersistedPath},
	{regexp.MustCompile(`(?m)^Chunk ID: \w+\nWall time: [0-9.]+ seconds$`), "Chunk ID: 000000\nWall time: 0.1000 seconds"},
}

// firstDifference shows where a and b part, with some text around.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	around := func(s string) string { return s[max(0, i-80):min(len(s), i+80)] }
	return fmt.Sprintf("at byte %d of %d and %d:\n%q\n%q", i, len(a), len(b), around(a), around(b))
}

func measureFacts(t *testing.T, fc factsClient, w workspace, cases []factcorpus.Case) {
	ownCalls := make([]call, len(cases))
	mcpCalls := make([]call, len(cases))
	for i, c := range cases {
		command := "bash " + c.Name + ".sh"
		ownCalls[i] = fc.ownCall(command)
		mcpCalls[i] = call{"bash", map[string]any{"command": command}}
	}
	own := drive(t, fc.own, w, ownCalls)
	mcp := drive(t, fc.mcp, w, mcpCalls)

	var sum [4]factcorpus.Score
	var table strings.Builder
	fmt.Fprintf(&table, "\n| case | %s (real) | its model (bench/facts) | spillway through %s | spillway's CLI --client %s |\n|---|---|---|---|---|\n",
		fc.own.name, fc.mcp.name, fc.name)
	for i, c := range cases {
		out, code, err := factcorpus.Run(w.dir, c.Name)
		if err != nil {
			t.Fatal(err)
		}
		modelText, ok := factcorpus.OwnTool(fc.name, out, code)
		if !ok {
			t.Fatalf("bench/facts has no model of %s", fc.own.name)
		}
		implied := fc.exitImplied && code == 0
		row := [4]factcorpus.Score{
			c.Count(own[i].Text(), implied),
			c.Count(modelText, implied),
			c.Count(mcp[i].Text(), false),
			c.Count(w.cli(t, "bash", "--client", fc.name, "bash "+c.Name+".sh"), false),
		}
		fmt.Fprintf(&table, "| %s |", c.Name)
		for j, s := range row {
			sum[j].Add(s)
			fmt.Fprintf(&table, " %s |", s)
		}
		table.WriteString("\n")
		real := own[i].Text()
		for _, m := range madeUp {
			real = m.re.ReplaceAllString(real, m.with)
		}
		if real != modelText {
			t.Errorf("%s: bench/facts' model of %s (%s) is not what the client gave (%s), %s",
				c.Name, fc.own.name, row[1], row[0], firstDifference(modelText, real))
		}
		for _, f := range row[3].Missed {
			row[2].Missed = slicesDeleteString(row[2].Missed, f)
		}
		if len(row[2].Missed) > 0 {
			t.Errorf("%s: through %s the model did not read %q, which spillway's CLI shows:\n%s",
				c.Name, fc.mcp.name, row[2].Missed, tail(mcp[i].Text(), 1500))
		}
	}
	table.WriteString("| **all** |")
	for _, s := range sum {
		fmt.Fprintf(&table, " **%s** |", s)
	}
	t.Log(table.String())
	if dump := os.Getenv("SPILLWAY_E2E_DUMP"); dump != "" {
		for i, c := range cases {
			os.WriteFile(fmt.Sprintf("%s.%s.%s.own.txt", dump, fc.name, c.Name), []byte(own[i].Text()), 0o644)
			os.WriteFile(fmt.Sprintf("%s.%s.%s.mcp.txt", dump, fc.name, c.Name), []byte(mcp[i].Text()), 0o644)
		}
	}
}

func slicesDeleteString(s []string, x string) []string {
	var out []string
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}
