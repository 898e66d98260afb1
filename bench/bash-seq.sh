#!/usr/bin/env bash
# bench/bash-seq.sh — spillway bash on 1.4 GB of output against a bare pipe.
#
# In one run, times
#   spillway bash 'seq 1 N'                   (N = 150000000: 1.4 GB of output)
#   seq 1 N | tail -c 51200 > /dev/null       (the reference: a pipe that keeps 50 KB)
# RUNS times each, alternating, and prints the best and median wall times,
# their ratio, the CPU time each took (steadier than wall time on a busy
# machine), and spillway's peak RSS (from /usr/bin/time -v).
# Targets (issue 2): ratio <= 1.5, peak RSS <= 64 MiB.
#
# Usage: bench/bash-seq.sh [N] [RUNS]     (from anywhere in the repository)
# Needs: go, seq, tail, and GNU time (Debian package `time`; installed if missing).
set -euo pipefail

N=${1:-150000000}
RUNS=${2:-5}
TARGET_RATIO=1.5
TARGET_RSS_KB=$((64 * 1024))

cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/time ]; then
	echo "installing GNU time (Debian package time)…" >&2
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y -qq time >/dev/null
	else
		sudo apt-get install -y -qq time >/dev/null
	fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/spillway
echo "building spillway…" >&2
go build -o "$bin" ./cmd/spillway

# The CLI spills into $TMPDIR/spillway-<uid>/cli/: keep that out of the
# real temp directory, and drop it when done.
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

now() { date +%s%N; }

# calc EXPR: floating-point arithmetic.
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

# run_ref: "seconds cpu_seconds" for the reference pipe (CPU time of seq
# and tail, user + system).
run_ref() {
	local t0 t1
	t0=$(now)
	/usr/bin/time -f "%U %S" -o "$work/reftime.txt" sh -c "seq 1 $N | tail -c 51200 >/dev/null"
	t1=$(now)
	echo "$(calc "($t1 - $t0) / 1000000000") $(awk '{print $1 + $2}' "$work/reftime.txt")"
}

# run_spillway: "seconds max_rss_kb cpu_seconds" for spillway bash (CPU time
# of spillway, bash and seq); its text goes to $work/out.txt, time's report
# to $work/time.txt.
run_spillway() {
	local t0 t1 rc=0
	t0=$(now)
	/usr/bin/time -v -o "$work/time.txt" "$bin" bash "seq 1 $N" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
	t1=$(now)
	if [ "$rc" -ne 0 ]; then
		echo "spillway bash failed (exit $rc):" >&2
		cat "$work/err.txt" "$work/out.txt" >&2
		exit 1
	fi
	local rss cpu
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
	cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/time.txt")
	# Clean up before reporting: nothing may overlap the next timed run.
	rm -rf "${TMPDIR:?}"/spillway-*
	echo "$(calc "($t1 - $t0) / 1000000000") $rss $cpu"
}

# stats: "best median" of the numbers on stdin.
stats() {
	sort -n | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.3f %.3f\n", a[1], m}'
}

echo "seq 1 $N: $RUNS runs each, alternating ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
ref_times=() sw_times=() sw_rss=() ref_cpu=() sw_cpu=()
for i in $(seq 1 "$RUNS"); do
	if [ $((i % 2)) -eq 1 ]; then
		read -r r rc < <(run_ref)
		read -r s m sc < <(run_spillway)
	else
		read -r s m sc < <(run_spillway)
		read -r r rc < <(run_ref)
	fi
	ref_times+=("$r") sw_times+=("$s") sw_rss+=("$m") ref_cpu+=("$rc") sw_cpu+=("$sc")
	printf "  run %d: pipe %6.3fs (cpu %5.2fs)   spillway %6.3fs (cpu %5.2fs)   ratio %.2f   spillway peak RSS %.1f MiB\n" \
		"$i" "$r" "$rc" "$s" "$sc" "$(calc "$s / $r")" "$(calc "$m / 1024")"
done

read -r ref_best ref_med < <(printf '%s\n' "${ref_times[@]}" | stats)
read -r sw_best sw_med < <(printf '%s\n' "${sw_times[@]}" | stats)
read -r rss_best rss_med < <(printf '%s\n' "${sw_rss[@]}" | stats)
rss_max=$(printf '%s\n' "${sw_rss[@]}" | sort -n | tail -1)
read -r rcpu_best rcpu_med < <(printf '%s\n' "${ref_cpu[@]}" | stats)
read -r scpu_best scpu_med < <(printf '%s\n' "${sw_cpu[@]}" | stats)
ratio_best=$(calc "$sw_best / $ref_best")
ratio_med=$(calc "$sw_med / $ref_med")

echo
echo "what spillway printed (last 3 lines):"
tail -n 3 "$work/out.txt" | cut -c1-200 | sed 's/^/  /'
echo
printf "pipe:      best %.3fs  median %.3fs\n" "$ref_best" "$ref_med"
printf "spillway:  best %.3fs  median %.3fs\n" "$sw_best" "$sw_med"
printf "ratio:     best %.2f   median %.2f   (target <= %s)\n" "$ratio_best" "$ratio_med" "$TARGET_RATIO"
printf "CPU time:  pipe best %.2fs median %.2fs; spillway (with bash and seq) best %.2fs median %.2fs; ratio of medians %.2f\n" \
	"$rcpu_best" "$rcpu_med" "$scpu_best" "$scpu_med" "$(calc "$scpu_med / $rcpu_med")"
printf "peak RSS:  median %.1f MiB, max %.1f MiB   (target <= 64 MiB)\n" \
	"$(calc "$rss_med / 1024")" "$(calc "$rss_max / 1024")"

ok=1
if awk "BEGIN { exit !($ratio_med > $TARGET_RATIO) }"; then
	echo "MISS: median ratio $ratio_med > $TARGET_RATIO"
	ok=0
fi
if [ "$rss_max" -gt "$TARGET_RSS_KB" ]; then
	echo "MISS: peak RSS ${rss_max} KiB > ${TARGET_RSS_KB} KiB"
	ok=0
fi
[ "$ok" -eq 1 ] && echo "OK: both targets met"
exit $((1 - ok))
