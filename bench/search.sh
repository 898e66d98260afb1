#!/usr/bin/env bash
# bench/search.sh — spillway's grep and find against ripgrep and fd, in one
# run, over two trees: Go's own sources ($(go env GOROOT)/src) and a
# synthetic monorepo of 1.1 GB that bench/monorepo writes from a seed
# (many small files, .gitignore files at several levels, an ignored
# node_modules, a few large minified one-line bundles, binary files):
#
#   spillway grep ErrUnexpectedEOF    vs  rg -n --hidden --no-require-git   [≤ 1.0×, same count]
#   spillway grep 'func \w+Error\('   vs  rg -n --hidden --no-require-git   [≤ 1.0×, same count]
#   spillway find GLOB                vs  fdfind -H -g                      [≤ 1.0×, same count]
#
# Each spillway command is timed twice: as the CLI (`spillway grep`, which
# also starts a session: config, shell, watcher process) and as the bare
# search engine (bench/search-engine: internal/search alone, the same
# result text). The commands of one row run alternately (A B C A B C …) so
# that load on the machine hits them alike; the ratios are of the medians
# of wall time, and of CPU time (user+sys) beside them. spillway greps
# with a limit above the match count, so every tool finds and prints every
# match. Counts: spillway's match_count against the reference's lines.
#
# Usage: bench/search.sh [RUNS] [MONOREPO_RUNS]   (default 15 and 5)
# The monorepo is written to $SPILLWAY_BENCH_DIR/monorepo (default a
# temporary directory, removed at the end; a tree already there from the
# same seed and size is reused); SPILLWAY_MONOREPO_SEED (default 1) and
# SPILLWAY_MONOREPO_MB (default 1100) choose it. rg, fd and python3 are
# Debian packages (ripgrep, fd-find, python3); the script installs them if
# missing. They are references only.
set -euo pipefail

RUNS=${1:-15}
MRUNS=${2:-5}
cd "$(dirname "$0")/.."
REPO=$PWD

need=()
command -v rg >/dev/null || need+=(ripgrep)
command -v fdfind >/dev/null || need+=(fd-find)
command -v python3 >/dev/null || need+=(python3)
if ((${#need[@]})); then
	echo "installing ${need[*]}" >&2
	sudo_cmd=()
	[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
	"${sudo_cmd[@]}" apt-get update -qq
	"${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi

out=$(mktemp -d)
work=${SPILLWAY_BENCH_DIR:-}
if [ -z "$work" ]; then
	work=$out/bench
	mkdir -p "$work"
fi
trap 'rm -rf "$out"' EXIT
go build -o "$out/spillway" ./cmd/spillway
go build -o "$out/search-engine" ./bench/search-engine
go run ./bench/monorepo -dir "$work/monorepo" -seed "${SPILLWAY_MONOREPO_SEED:-1}" -size "${SPILLWAY_MONOREPO_MB:-1100}"

echo "$(nproc) CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)), load $(cut -d' ' -f1-3 /proc/loadavg), $(uname -sr)"
echo "spillway $(git describe --always --dirty 2>/dev/null || echo "?"), $(go version | cut -d' ' -f3), $(rg --version | sed -n 1p), $(fdfind --version)"
echo

python3 - "$RUNS" "$MRUNS" "$out/spillway" "$out/search-engine" "$(go env GOROOT)/src" "$work/monorepo" <<'PY'
import json, os, shlex, statistics, subprocess, sys, time

runs, mruns = int(sys.argv[1]), int(sys.argv[2])
spw, engine, goroot, mono = sys.argv[3:7]
RG = ["rg", "-n", "--hidden", "--no-require-git"]
LIT, RE = "ErrUnexpectedEOF", r"func \w+Error\("

def spw_count(cwd, tool, pattern):
    out = subprocess.run([spw, tool, "--json", "--limit", "100000"] +
                         (["--output-mode", "count"] if tool == "grep" else []) + [pattern, "."],
                         cwd=cwd, check=True, capture_output=True).stdout
    d = json.loads(out)["details"]
    return d["match_count" if tool == "grep" else "count"]

def lines(cwd, cmd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True)
    if p.returncode not in (0, 1):
        sys.exit(f"failed: {shlex.join(cmd)}")
    return p.stdout.count(b"\n")

devnull = os.open(os.devnull, os.O_WRONLY)

def run(cmd, cwd):
    """Wall and CPU (user+sys) seconds of one run, output discarded."""
    t0 = time.perf_counter()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        pid = os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    finally:
        os.chdir(old)
    _, status, ru = os.wait4(pid, 0)
    dt = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) not in (0, 1):  # rg: 1 is no match
        sys.exit(f"failed: {shlex.join(cmd)}")
    return dt, ru.ru_utime + ru.ru_stime, ru.ru_maxrss

rows = []
for tree, cwd, n, glob in (("go", goroot, runs, "*linux*_test.go"), ("monorepo", mono, mruns, "*Error*.go")):
    for name, pat in (("grep literal", LIT), ("grep regex", RE)):
        ref = RG + [pat, "."]
        rows.append((tree, cwd, n, name, [spw, "grep", "--limit", "100000", pat, "."],
                     [engine, "grep", pat], ref, spw_count(cwd, "grep", pat), lines(cwd, ref)))
    ref = ["fdfind", "-H", "-g", glob, "."]
    rows.append((tree, cwd, n, "find " + glob, [spw, "find", "--limit", "100000", glob, "."],
                 [engine, "find", glob], ref, spw_count(cwd, "find", glob), lines(cwd, ref)))

print("Commands (run in the tree's directory; A B C interleaved):")
for tree, cwd, n, name, a, e, b, ca, cb in rows:
    print(f"  [{tree}, {cwd}] {name}:\n    A {shlex.join(a)}\n    B {shlex.join(e)}\n    C {shlex.join(b)}")
print()
print(f"{'tree':9} {'benchmark':22} {'CLI':>9} {'engine':>9} {'ref':>9} {'CLI/ref':>8} {'eng/ref':>8} {'cpu CLI':>8} {'cpu eng':>8} {'count':>13}  target ≤ 1.0×")
failed = False
peak = 0
for tree, cwd, n, name, a, e, b, ca, cb in rows:
    for _ in range(2):  # warm the page cache and the binaries
        run(a, cwd); run(e, cwd); run(b, cwd)
    t = {"a": [], "e": [], "b": []}
    c = {"a": [], "e": [], "b": []}
    for _ in range(n):
        for k, cmd in (("a", a), ("e", e), ("b", b)):
            dt, cpu, rss = run(cmd, cwd)
            t[k].append(dt); c[k].append(cpu)
            if k != "b":
                peak = max(peak, rss)
    m = {k: statistics.median(v) for k, v in t.items()}
    mc = {k: statistics.median(v) for k, v in c.items()}
    ok = m["a"] / m["b"] <= 1.0 and ca == cb
    failed |= not ok
    print(f"{tree:9} {name:22} {m['a']*1000:7.0f}ms {m['e']*1000:7.0f}ms {m['b']*1000:7.0f}ms "
          f"{m['a']/m['b']:7.2f}× {m['e']/m['b']:7.2f}× {mc['a']/mc['b']:7.2f}× {mc['e']/mc['b']:7.2f}×  "
          f"{ca:>6}/{cb:<6} {'ok' if ok else 'MISSED'}")
print(f"spillway peak RSS: {peak/1024:.1f} MiB; load after: {open('/proc/loadavg').read().split()[:3]}")
sys.exit(1 if failed else 0)
PY
