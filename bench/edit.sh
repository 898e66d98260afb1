#!/usr/bin/env bash
# bench/edit.sh — editing one line of a 1 GiB file, in one run:
#
#   spillway's edit engine (filechange.Session.Edit)  vs  sed -i     [time ≤ 2×]
#   peak RSS of each (/usr/bin/time -v)
#
# The file is ~11 million lines of ~97 bytes with one unique line in the
# middle; each run edits a fresh copy (cp, not timed) so both start from
# the same page-cache state. spillway streams the file through a
# temporary file in the same directory, hashes the old and new content
# (staleness, details), fsyncs the file and the directory and renames it
# over the old one; sed -i also writes a temporary file and renames it,
# without fsync. The runs alternate (A B A B …); the medians are reported.
#
# Usage: bench/edit.sh [RUNS]   (default 5). Work files go to
# $SPILLWAY_BENCH_DIR (default a temporary directory, removed at the end).
set -euo pipefail
RUNS=${1:-5}
cd "$(dirname "$0")/.."
REPO=$PWD
[ -x /usr/bin/time ] || { echo "bench/edit.sh needs /usr/bin/time" >&2; exit 2; }
work=${SPILLWAY_BENCH_DIR:-}
if [ -z "$work" ]; then work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
go test -c -o "$work/filechange.test" ./internal/filechange
src=$work/big.src
if [ ! -s "$src" ]; then
	python3 - "$src" <<'PY'
import sys
n = 11_000_000
with open(sys.argv[1], "w") as f:
    line = "2026-01-02T03:04:05Z INFO  server: request %09d handled path=/api/v1/items status=200 dur=3ms\n"
    for start in range(0, n, 100_000):
        f.write("".join(line % i for i in range(start, start + 100_000)))
        if start == n // 2:
            f.write("the needle line\n")
PY
fi
ls -l "$src"
measure() { # label command...
	/usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	echo "$1 $(cat "$work/time")"
}
for i in $(seq "$RUNS"); do
	cp "$src" "$work/a"; sync
	/usr/bin/time -f "spillway %e %M" -o "$work/time" env SPILLWAY_EDIT_FILE="$work/a" SPILLWAY_EDIT_OLD="the needle line" SPILLWAY_EDIT_NEW="the thread line" \
		"$work/filechange.test" -test.run '^TestEditFile$' >/dev/null
	cat "$work/time"
	grep -c "the thread line" "$work/a" >/dev/null
	cp "$src" "$work/b"; sync
	/usr/bin/time -f "sed %e %M" -o "$work/time" sed -i 's/the needle line/the thread line/' "$work/b"
	cat "$work/time"
	cmp -s "$work/a" "$work/b" || { echo "the results differ" >&2; exit 1; }
done | tee "$work/runs"
python3 - "$work/runs" <<'PY'
import sys, statistics
runs = {}
for l in open(sys.argv[1]):
    name, secs, kb = l.split()
    runs.setdefault(name, []).append((float(secs), int(kb)))
s = statistics.median(t for t, _ in runs["spillway"]); d = statistics.median(t for t, _ in runs["sed"])
print(f"spillway edit: median {s:.2f} s, peak RSS {max(k for _, k in runs['spillway'])/1024:.1f} MiB")
print(f"sed -i:        median {d:.2f} s, peak RSS {max(k for _, k in runs['sed'])/1024:.1f} MiB")
print(f"ratio {s/d:.2f}x (target <= 2x)")
PY
