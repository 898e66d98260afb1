#!/usr/bin/env bash
# bench/soak-sandbox.sh — the soak (bench/soak.sh) plain and under
# `--sandbox --no-network`, alternating in one run (plain, sandboxed,
# sandboxed, plain, …) so that load hits both alike. Each run makes the
# same mixed calls; the script prints each run's calls/s and p50, the
# medians, and the sandboxed median as a share of the plain one. Target:
# >= 85 %. Every run must also pass the soak's own checks (nothing left
# running or on disk, no unexpected error, no growth).
#
# Usage: bench/soak-sandbox.sh [CALLS] [RUNS]   (defaults: 10000 calls, 1 run of each)
# Needs: go, and a machine where `spillway version` lists sandbox layers.
set -euo pipefail
calls=${1:-10000}
runs=${2:-1}
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/spillway" ./cmd/spillway
go build -o "$out/soak" ./bench/soak
version=$("$out/spillway" version)
if ! grep -q '^sandbox layers: landlock' <<<"$version"; then
	echo "bench/soak-sandbox.sh: this machine offers no sandbox ($(grep -i sandbox <<<"$version" | head -n1))" >&2
	exit 2
fi
echo "spillway $(git describe --always --dirty 2>/dev/null || echo '?'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $calls calls a run"

run() { # side, index
	local side=$1 log="$out/$1-$2.log" args=()
	if [ "$side" = sandboxed ]; then args=(-server-args '--root {ws} --sandbox --no-network'); else args=(-server-args '--root {ws}'); fi
	if ! "$out/soak" -bin "$out/spillway" -calls "$calls" "${args[@]}" >"$log" 2>&1; then
		echo "the $side soak failed its own checks:" >&2
		grep -E '^(MISS|ok) ' "$log" >&2 || tail -n 20 "$log" >&2
		exit 1
	fi
	local rate p50
	rate=$(sed -n 's/^calls: .* = \([0-9.]*\) calls\/s$/\1/p' "$log")
	p50=$(sed -n 's/^latency, all calls: p50 \([^ ]*\) .*/\1/p' "$log")
	echo "  $side run $2: $rate calls/s, p50 $p50, load $(cut -d' ' -f1 /proc/loadavg)"
	echo "$rate" >>"$out/$side.rates"
}
for i in $(seq 1 "$runs"); do
	if [ $((i % 2)) = 1 ]; then run plain "$i"; run sandboxed "$i"; else run sandboxed "$i"; run plain "$i"; fi
done
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
p=$(median "$out/plain.rates"); s=$(median "$out/sandboxed.rates")
share=$(awk -v s="$s" -v p="$p" 'BEGIN {printf "%.0f", 100*s/p}')
echo "plain: median $p calls/s; sandboxed: median $s calls/s; sandboxed is $share % of plain (target >= 85 %)"
[ "$share" -ge 85 ] || { echo "MISSED: sandboxed soak under 85 % of plain"; exit 1; }
echo "OK"
