#!/usr/bin/env bash
# Installs the MCP clients the e2e tests drive — Claude Code and Codex, from
# npm, at pinned versions — and exports the variables that name them
# (SPILLWAY_E2E_CLAUDE, SPILLWAY_E2E_CODEX). .ci/run sources this file
# before the test command, so `go test ./...` runs e2e/ against them.
#
# Both packages ship a native binary for the platform inside the npm
# package; neither downloads anything at run time. The tests point them at
# a stand-in model API on 127.0.0.1 and never reach a real provider.
#
# Environment:
#   SPILLWAY_CI_CACHE   cache directory (default ${XDG_CACHE_HOME:-~/.cache}/spillway-ci)
#   CLAUDE_CODE_VERSION, CODEX_VERSION   the versions (defaults below)

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
