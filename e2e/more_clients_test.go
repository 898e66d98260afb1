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
	limit:    50000,
	run: func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		env := cleanEnv(t)
		home := envValue(env, "HOME")
		// The README's Gemini CLI entry, with the binary's path.
		writeJSON(t, filepath.Join(home, ".gemini", "settings.json"), map[string]any{
			"mcpServers": map[string]any{
				"spillway": map[string]any{"command": w.spillway, "args": []string{"mcp"}, "trust": true},
			},
			"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		})
		cmd := exec.CommandContext(ctx, bin, "-p", "use the spillway tools", "--yolo", "--output-format", "json")
		cmd.Env = append(env,
			"GEMINI_API_KEY=stand-in",
			"GOOGLE_GEMINI_BASE_URL="+api,
			"GEMINI_CLI_NO_RELAUNCH=true",
		)
		return cmd
	},
}

var opencode = client{
	name:     "opencode",
	env:      opencodeEnv,
	toolName: func(tool string) string { return "spillway_" + tool },
	offered:  "spillway_bash",
	limit:    50000,
	run: func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		env := cleanEnv(t)
		// The README's opencode entry, with the binary's path, and the
		// stand-in as the Anthropic provider.
		cfg, _ := json.Marshal(map[string]any{
			"$schema":    "https://opencode.ai/config.json",
			"model":      "anthropic/claude-sonnet-4-5",
			"autoupdate": false,
			"share":      "disabled",
			"provider": map[string]any{"anthropic": map[string]any{
				"options": map[string]any{"baseURL": api + "/v1", "apiKey": "sk-ant-stand-in"},
			}},
			"mcp": map[string]any{
				"spillway": map[string]any{"type": "local", "command": []string{w.spillway, "mcp"}, "enabled": true},
			},
			"permission": map[string]any{"*": "allow"},
		})
		cmd := exec.CommandContext(ctx, bin, "run", "--print-logs", "--auto", "use the spillway tools")
		cmd.Env = append(env,
			"OPENCODE_CONFIG_CONTENT="+string(cfg),
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
		if k, v, ok := cutEnv(env[i]); ok && k == key {
			return v
		}
	}
	return ""
}

func cutEnv(kv string) (string, string, bool) { return strings.Cut(kv, "=") }

func TestGeminiCLI(t *testing.T) { testClient(t, gemini) }
func TestOpencode(t *testing.T)  { testClient(t, opencode) }
