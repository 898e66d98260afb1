#!/usr/bin/env bash
# bench/read.sh — spillway read on a 150 000 000-line file (seq), in one run:
#
#   spillway read --offset 100000000 FILE   vs  wc -l FILE          [≤ 1.5×]
#   spillway's peak RSS (/usr/bin/time -v)                        [≤ 64 MiB]
#   in one process, the second page after the first               [≤ 50 ms]
#
# A fresh `spillway read` has no line index yet: it must count every line
# (total_lines is always known) and find line 100 000 000 in one pass, so
# wc -l is the floor it is held to. The two commands are run alternately
# (A B A B …) with the file in the page cache, so that load on the machine
# hits both alike; the ratio is of the medians (of the fastest runs beside
# it). The second page is timed by a Go test in one process
# (files.TestBenchSecondPage), which reads the first page and then the next.
#
# Usage: bench/read.sh [RUNS]   (default 11 runs of each command)
# The 1.3 GB file is made in $SPILLWAY_BENCH_DIR (default a temporary
# directory, removed at the end; a file already there is reused).
set -euo pipefail

RUNS=${1:-11}
cd "$(dirname "$0")/.."
REPO=$PWD

command -v python3 >/dev/null || { echo "bench/read.sh needs python3" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/read.sh needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=${SPILLWAY_BENCH_DIR:-}
if [ -z "$work" ]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
FILE=$work/seq-150000000.txt
if [ ! -s "$FILE" ]; then
	echo "making $FILE (seq 1 150000000) …" >&2
	seq 1 150000000 >"$FILE"
fi
go build -o "$work/spillway" ./cmd/spillway
SPW=$work/spillway
cat "$FILE" >/dev/null # into the page cache

echo "file: $FILE ($(stat -c %s "$FILE") bytes), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "spillway: $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?'), $(wc --version | head -1)"
echo

# The page must be right before its speed counts.
# sed reads to the end: head would leave spillway a closed pipe (SIGPIPE,
# exit 141), which pipefail and set -e make the script's failure.
first=$("$SPW" read --offset 100000000 --limit 1 "$FILE" | sed -n 1p)
[ "$first" = 100000000 ] || { echo "spillway read --offset 100000000 showed $first" >&2; exit 1; }

ratio_status=0
python3 - "$RUNS" "$SPW" "$FILE" <<'PY' || ratio_status=$?
import os, statistics, sys, time

runs, spw, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
a = [spw, "read", "--offset", "100000000", path]
b = ["wc", "-l", path]
devnull = os.open(os.devnull, os.O_WRONLY)

def run(cmd):
    t0 = time.perf_counter()
    pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, status, ru = os.wait4(pid, 0)
    dt = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return dt, ru.ru_maxrss

for _ in range(2):
    run(a); run(b)
ta, tb, peak = [], [], 0
for _ in range(runs):
    dt, rss = run(a); ta.append(dt); peak = max(peak, rss)
    dt, _ = run(b); tb.append(dt)
ma, mb = statistics.median(ta), statistics.median(tb)
ratio, fast = ma / mb, min(ta) / min(tb)
print(f"{'benchmark':36} {'spillway':>10} {'wc -l':>10} {'ratio':>6} {'(fastest)':>9}  target")
print(f"{'read --offset 100000000 vs wc -l':36} {ma*1000:8.1f}ms {mb*1000:8.1f}ms {ratio:5.2f}× {fast:8.2f}×  ≤ 1.5×: {'ok' if ratio <= 1.5 else 'MISSED'}")
print(f"(peak RSS over the timed runs: {peak/1024:.1f} MiB)")
sys.exit(0 if ratio <= 1.5 else 1)
PY

rss_kb=$(/usr/bin/time -v "$SPW" read --offset 100000000 "$FILE" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}')
rss_mib=$(awk -v k="$rss_kb" 'BEGIN {printf "%.1f", k/1024}')
rss_ok=$(awk -v k="$rss_kb" 'BEGIN {print (k <= 64*1024) ? "ok" : "MISSED"}')
echo "spillway peak RSS (/usr/bin/time -v): $rss_mib MiB   ≤ 64 MiB: $rss_ok"

page=$(SPILLWAY_BENCH_READ_FILE="$FILE" go test -count=1 -run '^TestBenchSecondPage$' -v ./internal/files/ | grep -E '^(first page|second page|later pages)')
echo "$page"
second_ms=$(echo "$page" | awk '/^second page:/ {print $3}')
page_ok=$(awk -v m="$second_ms" 'BEGIN {print (m <= 50) ? "ok" : "MISSED"}')
echo "second page in one process: $second_ms ms   ≤ 50 ms: $page_ok"

[ "$ratio_status" = 0 ] && [ "$rss_ok" = ok ] && [ "$page_ok" = ok ]
