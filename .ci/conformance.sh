#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, from
# npm) against `spillway serve` on a loopback port.
#
# Every server scenario runs (--suite all). The scenarios that need the
# suite's own fixtures (tools named test_*, test prompts and resources,
# completions) are listed, each with its reason, in
# .ci/conformance-expected-failures.yml; any other failure, or a listed
# scenario that starts to pass, makes this script exit non-zero.
#
# The suite needs Node >= 22. When the system's node is older, a Node 24 is
# installed from npm (the `node` package, which fetches the platform binary)
# into the cache directory, as is the suite itself.
#
# Environment:
#   SPILLWAY_CI_CACHE     cache directory (default ${XDG_CACHE_HOME:-~/.cache}/spillway-ci)
#   CONFORMANCE_VERSION   suite version (default 0.1.16)
#   CONFORMANCE_RESULTS   keep the suite's results in this directory
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

CONFORMANCE_VERSION="${CONFORMANCE_VERSION:-0.1.16}"
cache="${SPILLWAY_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/spillway-ci}"
mkdir -p "$cache"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v npm >/dev/null; then
  echo "== installing nodejs and npm (to fetch the suite)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
fi

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

node=$(command -v node || true)
if [ -z "$node" ] || [ "$(node_major "$node")" -lt 22 ]; then
  node="$cache/node24/node_modules/.bin/node"
  if [ ! -x "$node" ] || [ "$(node_major "$node")" -lt 22 ]; then
    echo "== installing Node 24 from npm into $cache/node24 (system node: $(node --version 2>/dev/null || echo none))"
    npm install --no-audit --no-fund --loglevel=error --prefix "$cache/node24" node@24 >/dev/null
  fi
fi
echo "== node $("$node" --version)"

suite_dir="$cache/conformance-$CONFORMANCE_VERSION"
suite="$suite_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -f "$suite" ]; then
  echo "== installing @modelcontextprotocol/conformance@$CONFORMANCE_VERSION into $suite_dir"
  npm install --no-audit --no-fund --loglevel=error --engine-strict=false \
    --prefix "$suite_dir" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >/dev/null
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "== building spillway"
go build -o "$work/spillway" ./cmd/spillway

mkdir -p "$work/tmp"
# The suite cannot send a bearer token: serve without one, on loopback.
TMPDIR="$work/tmp" "$work/spillway" serve --listen 127.0.0.1:0 --no-token --log-level warn 2>"$work/serve.log" &
server_pid=$!
url=""
for _ in $(seq 1 150); do
  url=$(sed -n 's/^spillway: serving MCP at //p' "$work/serve.log" | head -n 1)
  [ -n "$url" ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "spillway serve did not start:" >&2
  cat "$work/serve.log" >&2
  exit 1
fi
echo "== spillway serve at $url"

results="${CONFORMANCE_RESULTS:-$work/results}"
mkdir -p "$results"
status=0
(cd "$work" && "$node" "$suite" server --url "$url" --suite all \
  --expected-failures "$root/.ci/conformance-expected-failures.yml" \
  --output-dir "$results") || status=$?

# The server must still be up, and end cleanly on SIGTERM.
if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "spillway serve died during the suite:" >&2
  cat "$work/serve.log" >&2
  exit 1
fi
kill -TERM "$server_pid"
if ! wait "$server_pid"; then
  echo "spillway serve did not exit cleanly on SIGTERM:" >&2
  cat "$work/serve.log" >&2
  status=1
fi
server_pid=""
if [ -s "$work/serve.log" ]; then
  echo "== spillway serve log"
  cat "$work/serve.log"
fi
exit "$status"
