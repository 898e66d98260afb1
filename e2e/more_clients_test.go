package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Gemini CLI and opencode, from npm like the others, each configured with
// the snippet the README gives for it.
const (
	geminiEnv   = "SPILLWAY_E2E_GEMINI"   // path of Gemini CLI's `gemini`
	opencodeEnv = "SPILLWAY_E2E_OPENCODE" // path of opencode's `opencode`
)

// writeJSON writes v as JSON to path, making its directory.
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

var gemini = client{
	name:     "Gemini CLI",
	env:      geminiEnv,
	toolName: func(tool string) string { return "mcp_spillway_" + tool },
	offered:  "mcp_spillway_bash",
	// Measured with 0.61.0: a text result of 39,959 characters reaches
	// the model whole (inside the 41 characters of
	// "<untrusted_context>\n…\n</untrusted_context>"), one of 39,960 is
	// cut to its first fifth and last four fifths.
	limit:     40000,
	cutMarker: "Output too large.",
	run: func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		env := cleanEnv(t)
		// The README's Gemini CLI entry (~/.gemini/settings.json), with
		// the binary's path.
		settings := readmeJSON(t, "**Gemini CLI**", w.spillway)
		// The test's own: an API key, not a Google login.
		settings["security"] = map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}
		writeJSON(t, filepath.Join(envValue(env, "HOME"), ".gemini", "settings.json"), settings)
		cmd := exec.CommandContext(ctx, bin, "-p", "use the spillway tools", "--yolo", "--output-format", "json")
		cmd.Env = append(env,
			"GEMINI_API_KEY=stand-in",
			"GOOGLE_GEMINI_BASE_URL="+api,
			// One process: no relaunch with a larger heap.
			"GEMINI_CLI_NO_RELAUNCH=true",
			// The temporary workspace counts as trusted, as a user's
			// project would after the first-run question.
			"GEMINI_CLI_TRUST_WORKSPACE=true",
		)
		return cmd
	},
}

var opencode = client{
	name:     "opencode",
	env:      opencodeEnv,
	toolName: func(tool string) string { return "spillway_" + tool },
	offered:  "spillway_bash",
	// Measured with 1.18.33: a result over 2,000 lines or 51,200 bytes is
	// cut to its head, the rest saved to a file of opencode's.
	limit:     50000,
	cutMarker: "output was truncated",
	run: func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		env := cleanEnv(t)
		// The README's opencode entry, as opencode.json in the project,
		// with the binary's path.
		writeJSON(t, filepath.Join(w.dir, "opencode.json"), readmeJSON(t, "**opencode**", w.spillway))
		// The test's own, merged over the project's opencode.json: the
		// stand-in as the Anthropic provider, and every tool allowed
		// without asking.
		test, _ := json.Marshal(map[string]any{
			"model":      "anthropic/claude-sonnet-4-5",
			"autoupdate": false,
			"share":      "disabled",
			"provider": map[string]any{"anthropic": map[string]any{
				"options": map[string]any{"baseURL": api + "/v1", "apiKey": "sk-ant-stand-in"},
			}},
			"permission": map[string]any{"*": "allow"},
		})
		cmd := exec.CommandContext(ctx, bin, "run", "--auto", "use the spillway tools")
		cmd.Env = append(env,
			"OPENCODE_CONFIG_CONTENT="+string(test),
			"OPENCODE_DISABLE_MODELS_FETCH=1",
			"OPENCODE_DISABLE_AUTOUPDATE=1",
			"OPENCODE_DISABLE_DEFAULT_PLUGINS=1",
			"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
			"OPENCODE_DISABLE_CLAUDE_CODE=1",
		)
		return cmd
	},
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

func TestGeminiCLI(t *testing.T) { testClient(t, gemini) }
func TestOpencode(t *testing.T)  { testClient(t, opencode) }
