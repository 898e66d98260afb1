#!/usr/bin/env bash
# bench/sandbox.sh — what a sandboxed bash call costs, side by side in one
# run: spillway mcp plain, --root W --sandbox and --root W --sandbox
# --no-network answering bash {"command":"true"} over stdio (interleaved
# repetitions, go run ./bench/mcp-roundtrip -root W), then hyperfine of a
# whole bubblewrap process with every namespace and of bash -c true.
#
#   sandboxed p50 / bwrap p50 ≤ 1.2   (the target)
#
# Usage: bench/sandbox.sh [CALLS] [WARMUP]   (default 50 measured calls of
# each kind after 10 warm-ups); SPILLWAY_BIN=path measures that spillway
# binary instead of building this tree's. bwrap and hyperfine are Debian packages
# (bubblewrap, hyperfine); the script installs them if missing.
set -euo pipefail

CALLS=${1:-50}
WARM=${2:-10}
cd "$(dirname "$0")/.."

source bench/need.sh
need bwrap:bubblewrap hyperfine:hyperfine python3:python3

source bench/sandboxed.sh
echo "spillway $(git describe --always --dirty 2>/dev/null || echo "?"), $("$out/spillway" version | tr '\n' ' ')"
echo

# The MCP servers: plain, --sandbox, --sandbox --no-network, each started
# once (spillway mcp, spillway mcp --root W --sandbox, spillway mcp --root W
# --sandbox --no-network) and called in rotation with bare bash -c true and
# the in-process library.
run "$out/mcp-roundtrip" -bin "$out/spillway" -root "$W" -n "$CALLS" -warmup "$WARM" -max 1000 | tee "$out/rt.txt"
echo

bwrap_cmd="bwrap --ro-bind / / --dev /dev --proc /proc --bind $W $W --unshare-all --die-with-parent bash -c true"
run hyperfine -N -w "$WARM" -r "$CALLS" --export-json "$out/hf.json" "$bwrap_cmd" "bash -c true" | grep -E 'Benchmark|Time|Range'
echo

# p50s of the same run, and the ratios.
python3 - "$out/rt.txt" "$out/hf.json" <<'PY'
import json, statistics, sys
p50 = {}
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == "p50_us":
        p50[f[1]] = int(f[2]) / 1000
for r in json.load(open(sys.argv[2]))["results"]:
    name = "bwrap" if r["command"].startswith("bwrap") else "bash -c true (hyperfine)"
    p50[name] = statistics.median(r["times"]) * 1000
rows = [("spillway mcp, plain", "mcp"), ("spillway mcp --root W --sandbox", "sandbox"),
        ("spillway mcp --root W --sandbox --no-network", "sandbox-no-network"),
        ("bwrap ... --unshare-all bash -c true (hyperfine)", "bwrap"),
        ("bash -c true (hyperfine)", "bash -c true (hyperfine)"),
        ("bash -c true (from Go, interleaved)", "bare")]
print("| what | p50 |\n|---|---|")
for label, k in rows:
    print(f"| {label} | {p50[k]:.2f} ms |")
print()
ok = True
for k in ("sandbox", "sandbox-no-network"):
    ratio = p50[k] / p50["bwrap"]
    ok &= ratio <= 1.2
    print(f"{k}/bwrap: {ratio:.2f}x (target <= 1.2x)")
print(f"sandbox/plain: {p50['sandbox'] / p50['mcp']:.2f}x")
sys.exit(0 if ok else 1)
PY
