package mcpserver

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/output"
)

// A Client is the MCP client a session serves, as it names itself: the
// clientInfo.name of initialize, or, from clients that skip initialize
// (the stateless protocol of 2026-07-28, as Claude Code 2.1 speaks it),
// the clientInfo each request carries in its _meta.
type Client struct {
	Name string
}

// A clientLimit is what one client lets through to the model whole.
type clientLimit struct {
	// names are the clientInfo names the client sends and, last, the
	// short name --client takes (it may be one of the former).
	names []string
	// chars is the most characters of one text result the client puts in
	// front of the model as it is; a longer one it cuts, or replaces by a
	// preview, itself, and the model never reads spillway's notices.
	chars int
	// errorChars, when above zero, is the same for an isError result.
	errorChars int
	// lines, when above zero, is the most lines of one result the client
	// lets through whole.
	lines int
	// errorsAsJSON: the client shows the model an isError result as the
	// JSON of the whole MCP result, its text escaped inside, and uncut.
	// Results to it leave isError unset: their text says the failure
	// (the exit code, the error) plainly.
	errorsAsJSON bool
}

// clientLimits are the clients measured to keep less than the default
// budget whole (docs/mcp.md gives the measurements and sources). A client
// not listed gets the policy's budget.
var clientLimits = []clientLimit{
	// Codex 0.169.0, measured through e2e/ with every model family it
	// knows: a text result of 11,055 characters reaches the model whole,
	// one of 12,018 is cut in the middle ("…N tokens truncated…"). The
	// budget keeps the whole under 11,000 with the 34 characters of "Wall
	// time: …\nOutput:\n" that Codex puts before it.
	{names: []string{"codex-mcp-client", "codex"}, chars: 10_900},
	// Claude Code 2.1.330, measured through e2e/: a result over 50,000
	// characters is swapped for a 2 KB preview of its JSON; an isError
	// result keeps its first and last 5,000 characters and loses the
	// middle ("... [N characters truncated] ..."): a failing build's
	// notices with it.
	{names: []string{"claude", "claude-code"}, chars: 50_000, errorChars: 9_900},
	// GitHub Copilot CLI cuts MCP text to 10 KiB.
	{names: []string{"github-copilot-cli", "copilot-cli", "copilot"}, chars: 10_000},
	// opencode 1.18.33, measured through e2e/: a tool result over 2,000
	// lines or 50 KiB is cut to its head ("...output was truncated") and
	// the rest saved to a file of opencode's, so spillway's tail and
	// notices would never reach the model.
	{names: []string{"opencode"}, chars: 50_000, lines: 2_000},
	// Gemini CLI 0.61.0, measured through e2e/: it wraps each text block
	// in "<untrusted_context>\n…\n</untrusted_context>" (41 characters),
	// and a one-block result over 40,000 characters with that is cut to
	// its first fifth and last four fifths ("Output too large. Showing
	// first …"), the rest saved to a file of Gemini CLI's.
	// An isError result it turns into "MCP tool 'bash' reported tool error
	// for function call: {…} with response: […]", the result as JSON.
	{names: []string{"gemini-cli-mcp-client", "gemini-cli", "gemini"}, chars: 39_900, errorsAsJSON: true},
}

// Fit returns p with its result budgets lowered to what the client puts in
// front of the model whole, for any result and for an error result. It
// only ever lowers a budget: a smaller one
// from the config stays, and a policy without a budget (a profile that
// reproduces another system's per-stream limits) keeps none.
func (c Client) Fit(p spillway.Policy) spillway.Policy {
	l, ok := c.limit()
	if !ok || p.ResultBudget <= 0 {
		return p
	}
	p.ResultBudget = min(p.ResultBudget, l.chars)
	if l.errorChars > 0 && l.errorChars < p.ResultBudget &&
		(p.ErrorResultBudget == 0 || l.errorChars < p.ErrorResultBudget) {
		p.ErrorResultBudget = l.errorChars
	}
	if l.lines > 0 {
		p = fitLines(p, l.lines)
	}
	return p
}

// fitLines lowers the line limits of p so that one result holds at most n
// lines with its notices: bash's two streams share n (with room for the
// stream headers, the omission markers, notices and the exit code), and
// each other tool's result takes it whole but for its notices.
func fitLines(p spillway.Policy, n int) spillway.Policy {
	const overhead = 20 // headers, markers, notices, the exit code
	stream := (n - overhead) / 2
	for _, l := range []*output.Limits{&p.Bash.Stdout, &p.Bash.Stderr} {
		if l.MaxLines == 0 || l.MaxLines > stream {
			l.MaxLines = stream
		}
	}
	for _, lim := range []*int{&p.Read.MaxLines, &p.Grep.Limit, &p.Find.Limit, &p.Ls.Limit} {
		if *lim == 0 || *lim > n-overhead {
			*lim = n - overhead
		}
	}
	return p
}

// PlainErrors reports whether results to the client leave isError unset,
// because it shows the model an isError result as JSON, not as its text.
func (c Client) PlainErrors() bool {
	l, _ := c.limit()
	return l.errorsAsJSON
}

// Known reports whether the client is one whose limit spillway knows.
func (c Client) Known() bool {
	_, ok := c.limit()
	return ok
}

// KnownClients lists the names --client takes, each a client's last
// (Claude Code's is claude-code, as the profile of its own tools is
// named; claude is taken too).
func KnownClients() string {
	var names []string
	for _, l := range clientLimits {
		names = append(names, l.names[len(l.names)-1])
	}
	return strings.Join(names, ", ")
}

func (c Client) limit() (clientLimit, bool) {
	name := strings.ToLower(strings.TrimSpace(c.Name))
	for _, l := range clientLimits {
		for _, n := range l.names {
			if name == n {
				return l, true
			}
		}
	}
	return clientLimit{}, false
}

// clientInfoMetaKey is where the stateless protocol puts the client's
// clientInfo in every request's _meta.
const clientInfoMetaKey = "io.modelcontextprotocol/clientInfo"

// clientOf returns the client of a call: from initialize when the session
// had one, else from the request's _meta.
func clientOf(req *mcp.CallToolRequest) Client {
	if req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
			return Client{Name: p.ClientInfo.Name}
		}
	}
	if req.Params != nil {
		if info, ok := req.Params.Meta[clientInfoMetaKey].(map[string]any); ok {
			if name, ok := info["name"].(string); ok {
				return Client{Name: name}
			}
		}
	}
	return Client{}
}
