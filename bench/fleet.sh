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
#   bench/fleet.sh -scenario jobs -end delete      # the same, each session ended by its DELETE
#   bench/fleet.sh -scenario idle -sessions 1000   # idle plain and --sandbox sessions: processes, PSS
#
#   bench/fleet.sh node                            # every one-node scenario, one after another, then
#                                                  # a table of their figures and targets, each with
#                                                  # the load average it was measured at:
#       jobs:  4,096 sessions with a running job each, read/ls at 300 calls/s for
#              a minute, SIGTERM with --drain-timeout 5s; then the same ended
#              by 4,096 DELETEs; the process table checked after each
#       idle:  1,000 idle plain and 1,000 idle --sandbox sessions
#       soak:  bench/soak plain and sandboxed (--sandbox --no-network), one
#              after the other: the sandboxed calls/s as a share of plain
#   bench/fleet.sh node -sessions 1024 -idle 200 -soak-calls 2000 -duration 20s   # a smaller one
#
# Needs Debian's haproxy and prometheus for the first two (apt-get install
# haproxy prometheus). Not part of `go test`: the fleet takes about two
# minutes on 2 cores, `node` about 25 at 4,096 sessions. It prints PASS or
# FAIL and exits 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/spillway" ./cmd/spillway
go build -o "$out/fleet" ./bench/fleet
if [ "${1:-}" != node ]; then
	exec "$out/fleet" -bin "$out/spillway" "$@"
fi

shift
sessions=4096 idle=1000 soakcalls=10000 duration=60s
while [ $# -gt 0 ]; do
	case "$1" in
	-sessions) sessions=$2; shift 2 ;;
	-idle) idle=$2; shift 2 ;;
	-soak-calls) soakcalls=$2; shift 2 ;;
	-duration) duration=$2; shift 2 ;;
	*) echo "fleet.sh node: unknown option $1 (want -sessions N, -idle N, -soak-calls N, -duration D)" >&2; exit 2 ;;
	esac
done
go build -o "$out/soak" ./bench/soak
sum=$out/summary.tsv
status=0
run() {
	echo "== $*"
	"$@" || status=1
	echo
}
run "$out/fleet" -bin "$out/spillway" -summary "$sum" -scenario jobs -sessions "$sessions" -rate 300 -duration "$duration" -end sigterm
run "$out/fleet" -bin "$out/spillway" -summary "$sum" -scenario jobs -sessions "$sessions" -rate 300 -duration 10s -end delete
run "$out/fleet" -bin "$out/spillway" -summary "$sum" -scenario idle -sessions "$idle"

# soak ARGS: runs bench/soak against a server with ARGS; prints its calls/s.
soak() {
	local log=$out/soak.log rate
	echo "== soak -calls $soakcalls -server-args '$1'" >&2
	"$out/soak" -bin "$out/spillway" -calls "$soakcalls" -server-args "$1" >"$log" 2>&1 || status=1
	cat "$log" >&2
	rate=$(sed -n 's/^calls: .* = \([0-9.]*\) calls\/s$/\1/p' "$log")
	echo "${rate:-0}"
}
plain=$(soak '--root {ws}')
sandboxed=$(soak '--root {ws} --sandbox --no-network')
load=$(cut -d' ' -f1-3 /proc/loadavg)
share=$(awk -v s="$sandboxed" -v p="$plain" 'BEGIN { printf "%d", (p > 0 ? 100 * s / p : 0) }')
mark=ok
[ "$share" -ge 85 ] || { mark=MISS; status=1; }
printf 'soak %s calls\tsandboxed calls/s, share of plain\t%s of %s: %s %%\t>= 85 %%\t%s\t%s\n' \
	"$soakcalls" "$sandboxed" "$plain" "$share" "$mark" "$load" >>"$sum"

echo "== summary (spillway $(git describe --always --dirty 2>/dev/null || echo '?'), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'))"
{
	printf 'scenario\tfigure\tvalue\ttarget\tresult\tload average\n'
	cat "$sum"
} | column -t -s "$(printf '\t')"
exit $status
