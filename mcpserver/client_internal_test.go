package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
)

// TestClientOfMeta: a client that skips initialize (the stateless
// protocol, as Claude Code 2.1 speaks it) is known by the clientInfo in
// the request's _meta.
func TestClientOfMeta(t *testing.T) {
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "bash", Meta: mcp.Meta{
		clientInfoMetaKey: map[string]any{"name": "codex-mcp-client", "version": "0.169.0"},
	}}}
	if got := clientOf(req); got.Name != "codex-mcp-client" {
		t.Errorf("clientOf = %q, want codex-mcp-client", got.Name)
	}
	if got := clientOf(&mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "bash"}}); got.Name != "" {
		t.Errorf("clientOf without initialize or _meta = %q, want none", got.Name)
	}
}

// TestClientFitOnlyLowers: a client's limit lowers a larger budget, and
// never raises a smaller one or adds one where the policy has none.
func TestClientFitOnlyLowers(t *testing.T) {
	codex := Client{Name: "codex-mcp-client"}
	for _, c := range []struct{ budget, want int }{{50_000, 10_900}, {5_000, 5_000}, {0, 0}} {
		p := spillway.DefaultPolicy()
		p.ResultBudget = c.budget
		if got := codex.Fit(p).ResultBudget; got != c.want {
			t.Errorf("budget %d fitted to Codex = %d, want %d", c.budget, got, c.want)
		}
	}
	claude := Client{Name: "claude-code"}
	for _, c := range []struct{ budget, want int }{{50_000, 9_900}, {8_000, 0}, {0, 0}} {
		p := spillway.DefaultPolicy()
		p.ResultBudget = c.budget
		if got := claude.Fit(p).ErrorResultBudget; got != c.want {
			t.Errorf("budget %d fitted to Claude Code: error budget %d, want %d", c.budget, got, c.want)
		}
	}
	p := spillway.DefaultPolicy()
	if got := (Client{Name: "some-client"}).Fit(p).ResultBudget; got != p.ResultBudget {
		t.Errorf("an unknown client changed the budget to %d", got)
	}
}

// TestKnownClientsShortNames: every client's short name, as --client and
// the help list it, is one spillway knows.
func TestKnownClientsShortNames(t *testing.T) {
	for _, name := range strings.Split(KnownClients(), ", ") {
		if !(Client{Name: name}).Known() {
			t.Errorf("--client %q is listed but not known", name)
		}
	}
}

// TestPlainErrorsGemini: Gemini CLI shows the model an isError result as
// JSON, so results to it leave isError unset; other clients keep it.
func TestPlainErrorsGemini(t *testing.T) {
	if !(Client{Name: "gemini-cli-mcp-client"}).PlainErrors() {
		t.Error("Gemini CLI gets isError results")
	}
	for _, name := range []string{"claude-code", "codex-mcp-client", "opencode", "some-client", ""} {
		if (Client{Name: name}).PlainErrors() {
			t.Errorf("%q gets no isError results", name)
		}
	}
}
