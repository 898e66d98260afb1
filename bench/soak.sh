#!/usr/bin/env bash
# Soak test of `spillway serve` (issue 7): 8 concurrent MCP clients over
# Streamable HTTP make 10,000 mixed calls (small and flooding bash, timeouts
# that background and are then killed, read, grep, find, ls) against one
# server on 127.0.0.1. It prints calls/s, p50/p99 latency, and the server's
# RSS, open fds, threads, goroutines and child processes at the start, the
# middle and the end. Then it ends the sessions and sends the server
# SIGTERM, and kills a second server with SIGKILL to check that its jobs die
# with it and the next start sweeps its spill directory. It exits 1 when a
# target is missed: an error that was not asked for, anything left running
# or on disk, RSS, live heap or fds growing more than 10 % from the middle
# to the end. Each client starts a new session every 125 calls (-reconnect),
# so that the middle and the end compare sessions of the same age.
#
#   bench/soak.sh                                   # the default run
#   bench/soak.sh -calls 2000                       # a shorter one
#   bench/soak.sh -server-args '--root {ws} --sandbox --no-network'
#   bench/soak.sh -reconnect 0 -calls 40000        # one session per client
#
# Not part of `go test`: it takes a minute or two on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/spillway" ./cmd/spillway
go build -o "$out/soak" ./bench/soak
"$out/soak" -bin "$out/spillway" "$@"
