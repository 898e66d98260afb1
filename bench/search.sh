#!/usr/bin/env bash
# bench/search.sh — spillway's in-process grep and find against ripgrep and
# fd over Go's own sources ($(go env GOROOT)/src), in one run:
#
#   spillway grep ErrUnexpectedEOF     vs  rg -n --hidden --no-require-git   [≤ 1.5×, same count]
#   spillway grep 'func \w+Error\('    vs  rg -n --hidden --no-require-git   [≤ 1.5×, same count]
#   spillway find '*linux*_test.go'    vs  fdfind -H -g                      [≤ 1.5×, same count]
#
# and spillway's peak RSS. Each pair is run alternately (A B A B …) so that
# load on the machine hits both alike; the ratio is of the medians (the
# ratio of the fastest runs is printed beside it). spillway greps with a
# limit above the match count, so both tools find and print every match.
#
# Usage: bench/search.sh [RUNS]   (default 21 runs of each command)
# rg, fd and hyperfine are Debian packages (ripgrep, fd-find, hyperfine);
# the script installs them if missing. They are references only.
set -euo pipefail

RUNS=${1:-21}
cd "$(dirname "$0")/.."

need=()
command -v rg >/dev/null || need+=(ripgrep)
command -v fdfind >/dev/null || need+=(fd-find)
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v python3 >/dev/null || need+=(python3)
if ((${#need[@]})); then
	echo "installing ${need[*]}" >&2
	sudo_cmd=()
	[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
	"${sudo_cmd[@]}" apt-get update -qq
	"${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/spillway" ./cmd/spillway
SPW="$out/spillway"
SRC="$(go env GOROOT)/src"
cd "$SRC"

echo "tree: $SRC ($(find . -type f | wc -l) files), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "spillway $(git -C "$OLDPWD" describe --always --dirty 2>/dev/null || echo "?"), $(rg --version | sed -n 1p), $(fdfind --version)"
echo

# Counts: spillway's details against the reference's output lines.
json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)["details"][sys.argv[1]])' "$1"; }
c1s=$("$SPW" grep --json --output-mode count --limit 100000 ErrUnexpectedEOF . | json_field match_count)
c1r=$(rg -n --hidden --no-require-git ErrUnexpectedEOF . | wc -l)
c2s=$("$SPW" grep --json --output-mode count --limit 100000 'func \w+Error\(' . | json_field match_count)
c2r=$(rg -n --hidden --no-require-git 'func \w+Error\(' . | wc -l)
c3s=$("$SPW" find --json --limit 100000 '*linux*_test.go' . | json_field count)
c3r=$(fdfind -H -g '*linux*_test.go' . | wc -l)

python3 - "$RUNS" "$SPW" "$c1s" "$c1r" "$c2s" "$c2r" "$c3s" "$c3r" <<'PY'
import os, statistics, subprocess, sys, time

runs, spw = int(sys.argv[1]), sys.argv[2]
counts = list(map(int, sys.argv[3:9]))
pairs = [
    ("grep ErrUnexpectedEOF",
     [spw, "grep", "--limit", "100000", "ErrUnexpectedEOF", "."],
     ["rg", "-n", "--hidden", "--no-require-git", "ErrUnexpectedEOF", "."],
     counts[0], counts[1]),
    (r"grep 'func \w+Error\('",
     [spw, "grep", "--limit", "100000", r"func \w+Error\(", "."],
     ["rg", "-n", "--hidden", "--no-require-git", r"func \w+Error\(", "."],
     counts[2], counts[3]),
    ("find '*linux*_test.go'",
     [spw, "find", "--limit", "100000", "*linux*_test.go", "."],
     ["fdfind", "-H", "-g", "*linux*_test.go", "."],
     counts[4], counts[5]),
]

devnull = os.open(os.devnull, os.O_WRONLY)

def run(cmd):
    """Wall seconds and peak RSS (KiB) of one run, output discarded."""
    t0 = time.perf_counter()
    pid = os.posix_spawnp(cmd[0], cmd, os.environ,
                          file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status, ru = os.wait4(pid, 0)
    dt = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return dt, ru.ru_maxrss

print(f"{'benchmark':28} {'spillway':>10} {'reference':>10} {'ratio':>6} {'(fastest)':>9}  {'count':>11}  target")
failed = False
peak = 0
for name, a, b, ca, cb in pairs:
    for _ in range(2):  # warm the page cache and the binaries
        run(a); run(b)
    ta, tb = [], []
    for _ in range(runs):
        dt, rss = run(a); ta.append(dt); peak = max(peak, rss)
        dt, _ = run(b); tb.append(dt)
    ma, mb = statistics.median(ta), statistics.median(tb)
    ratio, fast = ma / mb, min(ta) / min(tb)
    ok = ratio <= 1.5 and ca == cb
    failed |= not ok
    print(f"{name:28} {ma*1000:8.1f}ms {mb*1000:8.1f}ms {ratio:5.2f}× {fast:8.2f}×  {ca:>5}/{cb:<5}  ≤ 1.5×, same count: {'ok' if ok else 'MISSED'}")
print(f"spillway peak RSS: {peak/1024:.1f} MiB")
sys.exit(1 if failed else 0)
PY
