package spillway_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/output"
)

// Every tool's details carry "tokens": the estimate of the text the model
// reads, in the text format and (within a token or two, as the JSON holds
// its own count) in the json one.
func TestDetailsCarryTokens(t *testing.T) {
	for _, format := range []spillway.Format{spillway.FormatText, spillway.FormatJSON} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha 日本語\nbeta {\"x\": 1}\n"), 0o644)
		ts := bashToolset(t, spillway.Options{Cwd: dir, Format: format})
		bash, err := ts.Call(context.Background(), spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command":"seq 1 50"}`)})
		if err != nil {
			t.Fatal(err)
		}
		id := bash.Details.(spillway.BashDetails).HistoryID
		for _, c := range []struct{ tool, args string }{
			{"bash", `{"command":"echo hi; echo err >&2"}`},
			{"read", `{"path":"a.txt"}`},
			{"grep", `{"pattern":"beta"}`},
			{"find", `{"pattern":"*.txt"}`},
			{"ls", `{}`},
			{"jobs", `{}`},
			{"history", `{}`},
			{"history", `{"id":` + jsonInt(id) + `,"max_lines":5}`},
		} {
			res, err := ts.Call(context.Background(), spillway.ToolCall{Name: c.tool, Args: json.RawMessage(c.args)})
			if err != nil {
				t.Fatalf("%s %s: %v", c.tool, c.args, err)
			}
			b, err := json.Marshal(res.Details)
			if err != nil {
				t.Fatal(err)
			}
			var d struct {
				Tokens *int `json:"tokens"`
			}
			json.Unmarshal(b, &d)
			if d.Tokens == nil {
				t.Fatalf("%s (%s): details have no tokens: %s", c.tool, format, b)
			}
			want := output.EstimateTokensString(res.Text)
			if diff := *d.Tokens - want; diff < -2 || diff > 2 || want == 0 {
				t.Errorf("%s (%s): tokens %d, the text estimates at %d:\n%s", c.tool, format, *d.Tokens, want, res.Text)
			}
		}
	}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// max_tokens per call: the token limit cuts like the byte limit, the
// notice names it, and the spill holds everything.
func TestBashMaxTokens(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	res, err := ts.Call(context.Background(), spillway.ToolCall{Name: "bash",
		Args: json.RawMessage(`{"command":"seq 1 3000","max_tokens":200}`)})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Details.(spillway.BashDetails)
	tr := d.Stdout.Truncation
	if tr.TruncatedBy != output.ByTokens || !tr.Truncated {
		t.Fatalf("truncated_by %q, want tokens:\n%s", tr.TruncatedBy, res.Text)
	}
	if !strings.Contains(res.Text, "(200 tokens limit)") {
		t.Errorf("the notice does not name the token limit:\n%s", res.Text)
	}
	// seq's lines cost two tokens each (digits, newline); the window
	// shows no more than the limit.
	if shown := output.EstimateTokensString(res.Text[:strings.Index(res.Text, "[stdout:")]); shown > 260 {
		t.Errorf("%d tokens shown under a limit of 200 (with labels and the marker)", shown)
	}
	spilled, err := os.ReadFile(d.Stdout.FullOutputPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(spilled), "\n"); n != 3000 {
		t.Errorf("spill holds %d lines, want 3000", n)
	}
	// Without max_tokens the default policy has no token limit: the
	// byte and line limits decide.
	res, err = ts.Call(context.Background(), spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command":"seq 1 3000"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if by := res.Details.(spillway.BashDetails).Stdout.Truncation.TruncatedBy; by != output.ByLines {
		t.Errorf("default policy: truncated_by %q, want lines", by)
	}
	// A negative max_tokens is refused.
	if _, err := ts.Call(context.Background(), spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command":"true","max_tokens":-1}`)}); err == nil {
		t.Error("max_tokens -1 accepted")
	}
}

// A token limit in force is stated in the tool descriptions a model reads;
// without one they say nothing of tokens but the parameter.
func TestDescriptionsStateTokenLimits(t *testing.T) {
	p := spillway.DefaultPolicy()
	for _, name := range []string{"bash", "read", "grep", "find", "ls"} {
		tool, _ := registry.Lookup(name)
		if d := tool.Describe(p); strings.Contains(d, "tokens (estimated)") {
			t.Errorf("%s: no token limit, yet the description states one", name)
		}
	}
	p.Bash.Stdout.MaxTokens, p.Grep.MaxTokens, p.Find.MaxTokens, p.Ls.MaxTokens, p.Read.MaxTokens = 1111, 2222, 3333, 4444, 5555
	for name, want := range map[string]string{"bash": "or 1111 tokens", "grep": "and 2222 tokens", "find": "and 3333 tokens", "ls": "and 4444 tokens", "read": "or 5555 tokens"} {
		tool, _ := registry.Lookup(name)
		if d := tool.Describe(p); !strings.Contains(d, want+" (estimated)") {
			t.Errorf("%s: the description does not state %q:\n%s", name, want, d)
		}
	}
}

// read.max_tokens: a page ends before the line that would pass the token
// limit, the notice names it, and one line bigger than the limit is shown
// in part with the char_offset to go on.
func TestReadMaxTokens(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 500 {
		b.WriteString("line " + jsonInt(i) + " of the file\n")
	}
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(b.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "one.txt"), []byte(strings.Repeat("word ", 5000)+"\n"), 0o644)
	p := spillway.DefaultPolicy()
	p.Read.MaxTokens = 100
	ts := bashToolset(t, spillway.Options{Cwd: dir, Policy: &p})
	res, err := ts.Read(context.Background(), spillway.ReadInput{Path: "f.txt"})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Details.Truncation
	if tr.TruncatedBy != output.ByTokens || !strings.Contains(res.Text, "(100 tokens limit). Use offset=") {
		t.Fatalf("truncated_by %q:\n%s", tr.TruncatedBy, res.Text)
	}
	if n := output.EstimateTokensString(res.Content); n > 100 || n < 80 {
		t.Errorf("the page shows %d tokens for a limit of 100", n)
	}
	res, err = ts.Read(context.Background(), spillway.ReadInput{Path: "one.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Details.Truncation.TruncatedBy != output.ByTokens || !res.Details.Truncation.FirstLinePartial || len(res.Details.Next) != 1 {
		t.Fatalf("one long line: %+v\n%s", res.Details, res.Text)
	}
	if n := output.EstimateTokensString(res.Content); n > 100 {
		t.Errorf("part of a line: %d tokens for a limit of 100", n)
	}
}

// history's re-render takes max_tokens too: the stream is shown again
// within it, and the notice says so.
func TestRerenderMaxTokens(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "seq 1 3000"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := ts.History(context.Background(), spillway.HistoryInput{ID: res.Details.HistoryID, MaxTokens: 100})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(again.Text, "cut at the 100 tokens limit") {
		t.Fatalf("the notice does not name the token limit:\n%s", again.Text)
	}
	body := again.Text[:strings.Index(again.Text, "[head_tail:")]
	body = strings.TrimPrefix(body, "stdout:\n")
	if n := output.EstimateTokensString(body); n > 130 {
		t.Errorf("%d tokens shown again under a limit of 100 (with the marker)", n)
	}
	if _, err := ts.History(context.Background(), spillway.HistoryInput{ID: res.Details.HistoryID, MaxTokens: -1}); err == nil {
		t.Error("max_tokens -1 accepted")
	}
}
