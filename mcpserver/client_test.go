package mcpserver_test

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// wideFlood fills both streams with 300,000 lines of 81 characters.
// Its lines are of no common shape, so that the head and tail view, which
// fills the budget, is what the client gets (a stream of few shapes is a
// digest far under it).
// seq's digits are spelled as the letters g to p.
const wideFlood = "seq -f '%080g' 1 300000 | tr 0-9 g-p; seq -f '%080g' 1 300000 | tr 0-9 g-p >&2"

// spelled is n as wideFlood writes it.
func spelled(n int) string {
	return strings.Map(func(r rune) rune { return r - '0' + 'g' }, fmt.Sprintf("%080d", n))
}

// checkBothStreams: each stream shows its first and last line and its
// notice with the spill file.
func checkBothStreams(t *testing.T, text string) {
	t.Helper()
	first, last := spelled(1), spelled(300000)
	for _, stream := range []string{"stdout", "stderr"} {
		re := regexp.MustCompile(`(?m)^` + stream + `:\n` + first + `\n(?s:.*)\n` + last + `\n\[` + stream + `: [^\n]*Full output: /[^\n\]]+\]`)
		if !re.MatchString(text) {
			t.Errorf("%s: first or last line, or the notice with the spill file, missing:\n%s", stream, text)
		}
	}
}

// TestResultsFitTheClient: a client known to keep less than the default
// budget whole (Codex names itself codex-mcp-client) gets results that fit
// what it keeps; another client gets the default budget; --client names
// the client for one that does not say.
func TestResultsFitTheClient(t *testing.T) {
	cases := []struct {
		client   string
		args     []string
		command  string
		min, max int // bounds on the characters of the result
	}{
		{"codex-mcp-client", nil, wideFlood, 5_000, 10_900},
		{"some-client", []string{"--client", "codex"}, wideFlood, 5_000, 10_900},
		{"some-client", nil, wideFlood, 40_000, 50_000},
		{"some-client", nil, wideFlood + "; exit 1", 40_000, 50_000},
		{"claude-code", nil, wideFlood, 40_000, 50_000},
		// Claude Code keeps 10,000 characters of an error result.
		{"claude-code", nil, wideFlood + "; exit 1", 5_000, 9_900},
		// Gemini CLI keeps 40,000 characters with its own wrapper.
		{"gemini-cli-mcp-client", nil, wideFlood + "; exit 1", 30_000, 39_900},
	}
	for _, c := range cases {
		t.Run(c.client+strings.Join(c.args, " ")+c.command[len(wideFlood):], func(t *testing.T) {
			cs := connectStdioAs(t, c.client, t.TempDir(), nil, c.args...)
			res := call(t, cs, "bash", map[string]any{"command": c.command})
			if len(res.Content) != 1 {
				// Over stdio a link to the spill file would be more text
				// for the client to count, beside the notice naming it.
				t.Errorf("the result has %d content blocks, want the text alone", len(res.Content))
			}
			got := text(res)
			if n := len([]rune(got)); n < c.min || n > c.max {
				t.Errorf("the result has %d characters, want %d to %d", n, c.min, c.max)
			}
			checkBothStreams(t, got)
		})
	}
}

// TestGeminiErrorsPlain: Gemini CLI shows the model an isError result as
// JSON, so a failed command comes back to it without isError, its failure
// in the text; another client gets isError.
func TestGeminiErrorsPlain(t *testing.T) {
	for _, c := range []struct {
		client  string
		isError bool
	}{{"gemini-cli-mcp-client", false}, {"some-client", true}} {
		cs := connectStdioAs(t, c.client, t.TempDir(), nil)
		res := call(t, cs, "bash", map[string]any{"command": "echo out; exit 3"})
		if res.IsError != c.isError {
			t.Errorf("%s: isError = %v, want %v", c.client, res.IsError, c.isError)
		}
		if got := text(res); !strings.Contains(got, "out\n") || !strings.Contains(got, "exit code: 3") {
			t.Errorf("%s: the text should hold the output and the exit code:\n%s", c.client, got)
		}
	}
}

// TestClientFlagUnknown: --client with a name spillway does not know is a
// usage error that lists the ones it does.
func TestClientFlagUnknown(t *testing.T) {
	cmd := exec.Command(bin, "mcp", "--client", "nonesuch")
	cmd.Env = serverEnv(t.TempDir())
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 {
		t.Fatalf("want exit status 2, got %v\n%s", err, out)
	}
	if !strings.Contains(string(out), `--client "nonesuch"`) || !strings.Contains(string(out), "codex") {
		t.Errorf("the error should name the flag's value and the known clients:\n%s", out)
	}
}
