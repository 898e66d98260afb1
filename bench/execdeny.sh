#!/usr/bin/env bash
# bench/execdeny.sh — what the exec check costs: a deny rule that names a
# program (rm *) is held at exec under --sandbox by Landlock rules built as
# the complement of the denied files (docs/rules.md, "Deny at exec"). Two
# commands, bash true and a make -j of 200 small targets (200 execs of
# true), each with the rules of bench/mcp-roundtrip/rules.toml and with an
# empty config, all under --root W --sandbox, in one run:
#
#   1. hyperfine over the one-shot CLI (spillway --config F --root W
#      --sandbox bash CMD): every call starts its own sandbox, so the
#      denial's rules are built each time — the cold path;
#   2. bench/mcp-roundtrip over spillway mcp (a server per config, calls
#      interleaved): the session sandbox builds them once — what an
#      agent's calls pay.
#
# It prints the p50s and the ratios rules/empty. Usage:
# bench/execdeny.sh [RUNS] [CALLS]   (default 20 hyperfine runs, 60 MCP
# calls of each kind); SPILLWAY_BIN=path measures that binary.
set -euo pipefail

RUNS=${1:-20}
CALLS=${2:-60}
cd "$(dirname "$0")/.."

source bench/need.sh
need hyperfine:hyperfine make:make python3:python3

source bench/sandboxed.sh
# A copy outside the repository: the rules of a config inside an untrusted
# project are suspended (docs/rules.md), which only adds warnings here.
cp bench/mcp-roundtrip/rules.toml "$out/rules.toml"
rules=$out/rules.toml
: >"$out/empty.toml"

# 200 phony targets whose recipe make runs without a shell: 200 execs.
{
	printf 'all:'
	for i in $(seq 200); do printf ' t%d' "$i"; done
	printf '\n.PHONY: all'
	for i in $(seq 200); do printf ' t%d' "$i"; done
	printf '\nt%%:\n\t@true\n'
} >"$W/Makefile"
make_cmd="make -s -j8 -C $W"

echo "spillway $(git describe --always --dirty 2>/dev/null || echo "?"), $("$out/spillway" --config "$out/empty.toml" version | grep '^sandbox layers')"
echo

sw="$out/spillway"
hyperfine -N -w 3 -r "$RUNS" --export-json "$out/hf.json" \
	-n "cli true, no rules" "$sw --config $out/empty.toml --root $W --sandbox bash true" \
	-n "cli true, rm denied" "$sw --config $rules --root $W --sandbox bash true" \
	-n "cli make, no rules" "$sw --config $out/empty.toml --root $W --sandbox bash '$make_cmd'" \
	-n "cli make, rm denied" "$sw --config $rules --root $W --sandbox bash '$make_cmd'" \
	-n "make alone" "bash -c '$make_cmd'" | grep -E 'Benchmark|Time|Range'
echo

for cmd in true "$make_cmd"; do
	"$out/mcp-roundtrip" -bin "$sw" -root "$W" -rules "$rules" -max 1000 -max-rules 1000 \
		-n "$CALLS" -warmup 5 -command "$cmd" | tee -a "$out/rt.txt"
	echo
done

python3 - "$out/hf.json" <<'PY'
import json, statistics, sys
p50 = {r["command"]: statistics.median(r["times"]) * 1000 for r in json.load(open(sys.argv[1]))["results"]}
print("| CLI, one sandbox a call (hyperfine) | p50 no rules | p50 rm denied | ratio |\n|---|---|---|---|")
for what in ("true", "make"):
    a, b = p50[f"cli {what}, no rules"], p50[f"cli {what}, rm denied"]
    print(f"| `bash {what}` | {a:.1f} ms | {b:.1f} ms | {b / a:.2f}x |")
print(f"\nmake alone (no spillway): {p50['make alone']:.1f} ms")
PY
