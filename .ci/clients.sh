#!/usr/bin/env bash
# Installs the MCP clients the e2e tests drive — Claude Code, Codex, Gemini
# CLI and opencode, from npm, at pinned versions — and exports the variables
# that name them (SPILLWAY_E2E_CLAUDE, SPILLWAY_E2E_CODEX,
# SPILLWAY_E2E_GEMINI, SPILLWAY_E2E_OPENCODE). .ci/run sources this file
# before the test command, so `go test ./...` runs e2e/ against them.
#
# Claude Code and Codex ship a native binary for the platform inside the
# npm package; neither downloads anything at run time. The tests point
# every client at a stand-in model API on 127.0.0.1 and never reach a real
# provider.
#
# Environment:
#   SPILLWAY_CI_CACHE   cache directory (default ${XDG_CACHE_HOME:-~/.cache}/spillway-ci)
#   CLAUDE_CODE_VERSION, CODEX_VERSION, GEMINI_CLI_VERSION, OPENCODE_VERSION
#                       the versions (defaults below)

CLAUDE_CODE_VERSION="${CLAUDE_CODE_VERSION:-2.1.330}"
CODEX_VERSION="${CODEX_VERSION:-0.169.0}"
clients_dir="${SPILLWAY_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spillway-ci}/clients-$CLAUDE_CODE_VERSION-$CODEX_VERSION"

if ! command -v npm >/dev/null; then
  echo "== installing nodejs and npm (to fetch the clients)"
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
fi
if [ ! -x "$clients_dir/node_modules/.bin/claude" ] || [ ! -x "$clients_dir/node_modules/.bin/codex" ]; then
  echo "== installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION and @openai/codex@$CODEX_VERSION into $clients_dir"
  npm install --no-audit --no-fund --loglevel=error --prefix "$clients_dir" \
    "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" >/dev/null
fi
export SPILLWAY_E2E_CLAUDE="$clients_dir/node_modules/.bin/claude"
export SPILLWAY_E2E_CODEX="$clients_dir/node_modules/.bin/codex"
echo "== clients: $("$SPILLWAY_E2E_CLAUDE" --version 2>&1 | head -n1); $("$SPILLWAY_E2E_CODEX" --version 2>&1 | head -n1)"

# Gemini CLI and opencode, the same way: @google/gemini-cli is JavaScript
# for the Node.js above (>= 20); opencode-ai's postinstall links the native
# binary of an optional dependency (opencode-linux-x64). Neither downloads
# anything at run time; the tests point both at the same stand-in.
GEMINI_CLI_VERSION="${GEMINI_CLI_VERSION:-0.61.0}"
OPENCODE_VERSION="${OPENCODE_VERSION:-1.18.33}"
clients2_dir="${SPILLWAY_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spillway-ci}/clients-gemini-$GEMINI_CLI_VERSION-opencode-$OPENCODE_VERSION"
if [ ! -x "$clients2_dir/node_modules/.bin/gemini" ] || [ ! -x "$clients2_dir/node_modules/.bin/opencode" ]; then
  echo "== installing @google/gemini-cli@$GEMINI_CLI_VERSION and opencode-ai@$OPENCODE_VERSION into $clients2_dir"
  npm install --no-audit --no-fund --loglevel=error --prefix "$clients2_dir" \
    "@google/gemini-cli@$GEMINI_CLI_VERSION" "opencode-ai@$OPENCODE_VERSION" >/dev/null
fi
export SPILLWAY_E2E_GEMINI="$clients2_dir/node_modules/.bin/gemini"
export SPILLWAY_E2E_OPENCODE="$clients2_dir/node_modules/.bin/opencode"
echo "== clients: Gemini CLI $("$SPILLWAY_E2E_GEMINI" --version 2>&1 | head -n1); opencode $("$SPILLWAY_E2E_OPENCODE" --version 2>&1 | head -n1)"
