#!/usr/bin/env bash
# bench/bash-seq.sh — spillway bash on 1.4 GB of output against a bare pipe.
#
# In one run, alternating (A B B A A B …, so that load hits both alike):
#
#   spillway bash 'seq 1 N'                   (N = 150000000: 1.4 GB of output)
#   sh -c 'seq 1 N | tail -c 51200 >/dev/null' (the reference: a pipe that keeps 50 KB)
#
# For every run it prints the wall time, the CPU time (user + system, of
# the process and every child it waited for: spillway, bash and seq on
# one side, sh, seq and tail on the other, from wait4's rusage) and the
# peak RSS, then the medians, the best runs and the ratios of the medians.
# Targets: wall <= 1.2x and CPU <= 1.2x the pipe, spillway's peak RSS
# <= 64 MiB (it is about 20 MiB: a bounded window, a 100 MB spill file and
# a ring of the stream's end, whatever the stream's size).
#
# With BASE=<git revision> set, spillway as built at that revision is
# timed too, as a third side in the same rotation: before and after in
# one run.
#
# Usage: [BASE=rev] bench/bash-seq.sh [N] [RUNS]   (from anywhere in the repository)
# Needs: go, python3, seq, tail.
set -euo pipefail

N=${1:-150000000}
RUNS=${2:-7}

cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "bench/bash-seq.sh needs python3" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "+ go build -o $work/spillway ./cmd/spillway"
go build -o "$work/spillway" ./cmd/spillway
if [ -n "${BASE:-}" ]; then
	echo "+ git archive $BASE | tar -x -C $work/base && go build -o $work/spillway-base ./cmd/spillway"
	mkdir "$work/base"
	git archive "$BASE" | tar -x -C "$work/base"
	(cd "$work/base" && go build -o "$work/spillway-base" ./cmd/spillway)
fi

# The CLI spills into $TMPDIR/spillway-<uid>/cli/: keep that out of the
# real temp directory, and drop it between runs.
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

echo "spillway $(git describe --always --dirty 2>/dev/null || echo '?'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$N" "$RUNS" "$work" "${BASE:-}" <<'PY'
import os, shlex, shutil, statistics, sys, time

n, runs, work, base = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
spw = os.path.join(work, "spillway")
tmp = os.environ["TMPDIR"]
sides = {
    "pipe": ["sh", "-c", f"seq 1 {n} | tail -c 51200 >/dev/null"],
    "spillway": [spw, "bash", f"seq 1 {n}"],
}
if base:
    sides["base"] = [os.path.join(work, "spillway-base"), "bash", f"seq 1 {n}"]
for name, cmd in sides.items():
    print(f"{name + ':':10} {shlex.join(cmd)}")
print()

def run(name):
    """Wall seconds, CPU seconds (user + sys, waited-for children
    included) and peak RSS (KiB) of one run."""
    out = os.open(os.path.join(work, f"{name}.out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    cmd = sides[name]
    t0 = time.perf_counter()
    pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, out, 2)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(out)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{shlex.join(cmd)} failed:\n" + open(os.path.join(work, f"{name}.out")).read())
    # Nothing may overlap the next timed run: the spill file goes now.
    for d in os.listdir(tmp):
        shutil.rmtree(os.path.join(tmp, d), ignore_errors=True)
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss

res = {name: [] for name in sides}
names = list(sides)
for i in range(runs):
    order = names[i % len(names):] + names[:i % len(names)]
    if i % 2:
        order.reverse()
    for name in order:
        res[name].append(run(name))
    p = res["pipe"][-1]
    line = f"  run {i+1}: pipe {p[0]:6.3f}s cpu {p[1]:5.2f}s"
    for name in names[1:]:
        s = res[name][-1]
        line += (f"   {name} {s[0]:6.3f}s cpu {s[1]:5.2f}s (x{s[0]/p[0]:.2f}, x{s[1]/p[1]:.2f})"
                 f" RSS {s[2]/1024:.1f} MiB")
    print(line, flush=True)

print("\nwhat spillway printed (last 3 lines):")
with open(os.path.join(work, "spillway.out")) as f:
    for line in f.read().splitlines()[-3:]:
        print("  " + line[:200])
print()

med = lambda name, k: statistics.median(r[k] for r in res[name])
best = lambda name, k: min(r[k] for r in res[name])
for name in sides:
    print(f"{name + ':':10} wall median {med(name, 0):.3f}s best {best(name, 0):.3f}s   "
          f"cpu median {med(name, 1):.2f}s best {best(name, 1):.2f}s   peak RSS median {med(name, 2)/1024:.1f} MiB")
wall = med("spillway", 0) / med("pipe", 0)
cpu = med("spillway", 1) / med("pipe", 1)
rss = max(r[2] for r in res["spillway"]) / 1024
print(f"ratio:     wall {wall:.2f} (best {best('spillway', 0)/best('pipe', 0):.2f}), "
      f"cpu {cpu:.2f} (best {best('spillway', 1)/best('pipe', 1):.2f})   target <= 1.2 each")
if base:
    print(f"base:      ratio wall {med('base', 0) / med('pipe', 0):.2f}, cpu {med('base', 1) / med('pipe', 1):.2f}"
          f"   peak RSS max {max(r[2] for r in res['base']) / 1024:.1f} MiB   ({base})")
print(f"peak RSS:  max {rss:.1f} MiB   target <= 64 MiB")
miss = [m for m, bad in [(f"wall ratio {wall:.2f} > 1.2", wall > 1.2),
                         (f"cpu ratio {cpu:.2f} > 1.2", cpu > 1.2),
                         (f"peak RSS {rss:.1f} MiB > 64 MiB", rss > 64)] if bad]
for m in miss:
    print("MISS: " + m)
if not miss:
    print("OK: every target met")
sys.exit(1 if miss else 0)
PY
