#!/usr/bin/env bash
# Many `spillway serve` nodes on loopback (docs/operations.md):
#
#   bench/fleet.sh                                 # 3 nodes behind haproxy: 3 × 1,000 sessions,
#                                                  # 300 read/ls calls/s for a minute, a SIGKILL, a drain
#   bench/fleet.sh -duration 20s -sessions 300     # a shorter one
#   bench/fleet.sh -mode stick                     # haproxy learns sessions from Mcp-Session-Id
#   bench/fleet.sh -scenario prometheus            # Prometheus scrapes 3 nodes: sum(spillway_sessions)
#   bench/fleet.sh -scenario jobs -sessions 4096 -rate 100 -duration 30s
#                                                  # one node, a running job in each session
#
# Needs Debian's haproxy and prometheus (apt-get install haproxy
# prometheus). Not part of `go test`: the fleet takes about two minutes on
# 2 cores. It prints PASS or FAIL and exits 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/spillway" ./cmd/spillway
go build -o "$out/fleet" ./bench/fleet
"$out/fleet" -bin "$out/spillway" "$@"
