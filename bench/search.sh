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
# Each spillway search is timed three ways: as the CLI (`spillway grep`, a
# process per call, built as the release builds it: CGO_ENABLED=0,
# -trimpath, -s -w), as a tools/call to a `spillway mcp` server started
# once in the tree (how an agent's model calls it: the result goes through
# the whole pipeline, and what does not fit is spilled to a file), and as
# the bare search engine (bench/search-engine: internal/search alone, the
# same result text). The commands of one row run alternately (A M B C
# A M B C …) so that load on the machine hits them alike; the ratios are
# of the medians of wall time, and of CPU time (user+sys) beside them (the
# server's CPU is read from /proc in clock ticks, so its column is the
# mean). spillway searches with a limit above the match count, so every
# tool finds and prints every match. Counts: spillway's match_count
# against the reference's lines.
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

source bench/need.sh
need rg:ripgrep fdfind:fd-find python3:python3

out=$(mktemp -d)
work=${SPILLWAY_BENCH_DIR:-}
if [ -z "$work" ]; then
	work=$out/bench
	mkdir -p "$work"
fi
trap 'rm -rf "$out"' EXIT
CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$out/spillway" ./cmd/spillway
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
TICK = os.sysconf("SC_CLK_TCK")


class MCP:
    """A `spillway mcp` server on stdio, started once in a tree."""

    def __init__(self, cwd):
        self.p = subprocess.Popen([spw, "mcp"], cwd=cwd, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench-search", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, m):
        self.p.stdin.write(json.dumps(m).encode() + b"\n")
        self.p.stdin.flush()

    def request(self, method, params):
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("spillway mcp ended")
            m = json.loads(line)
            if m.get("id") == self.id:
                if "error" in m:
                    sys.exit(f"{method}: {m['error']}")
                return m["result"]

    def cpu(self):
        f = open(f"/proc/{self.p.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / TICK

    def call(self, tool, args):
        """Wall and CPU seconds of one tools/call."""
        c0, t0 = self.cpu(), time.perf_counter()
        r = self.request("tools/call", {"name": tool, "arguments": args})
        dt = time.perf_counter() - t0
        if r.get("isError"):
            sys.exit(f"{tool} {args}: {r}")
        return dt, self.cpu() - c0

    def close(self):
        self.p.stdin.close()
        self.p.wait()


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
                     ("grep", {"pattern": pat, "path": ".", "limit": 100000}),
                     [engine, "grep", pat], ref, spw_count(cwd, "grep", pat), lines(cwd, ref)))
    ref = ["fdfind", "-H", "-g", glob, "."]
    rows.append((tree, cwd, n, "find " + glob, [spw, "find", "--limit", "100000", glob, "."],
                 ("find", {"pattern": glob, "path": ".", "limit": 100000}),
                 [engine, "find", glob], ref, spw_count(cwd, "find", glob), lines(cwd, ref)))

print("Commands (run in the tree's directory; A M B C interleaved):")
for tree, cwd, n, name, a, mc, e, b, ca, cb in rows:
    print(f"  [{tree}, {cwd}] {name}:\n    A {shlex.join(a)}\n    M tools/call {mc[0]} {json.dumps(mc[1])} to {shlex.quote(spw)} mcp"
          f"\n    B {shlex.join(e)}\n    C {shlex.join(b)}")
print()
print(f"{'tree':9} {'benchmark':22} {'CLI':>7} {'MCP':>7} {'engine':>7} {'ref':>7} {'CLI/ref':>8} {'MCP/ref':>8} {'eng/ref':>8} "
      f"{'cpu CLI':>8} {'cpu MCP':>8} {'cpu eng':>8} {'count':>13}  target ≤ 1.0×")
failed = False
peak = 0
servers = {}
for tree, cwd, n, name, a, mcall, e, b, ca, cb in rows:
    srv = servers.get(cwd) or servers.setdefault(cwd, MCP(cwd))
    for _ in range(2):  # warm the page cache, the binaries and the server
        run(a, cwd); srv.call(*mcall); run(e, cwd); run(b, cwd)
    t = {"a": [], "m": [], "e": [], "b": []}
    c = {"a": [], "m": [], "e": [], "b": []}
    for _ in range(n):
        for k, cmd in (("a", a), ("m", None), ("e", e), ("b", b)):
            if k == "m":
                dt, cpu = srv.call(*mcall)
            else:
                dt, cpu, rss = run(cmd, cwd)
                if k != "b":
                    peak = max(peak, rss)
            t[k].append(dt); c[k].append(cpu)
    m = {k: statistics.median(v) for k, v in t.items()}
    mc = {k: statistics.median(v) for k, v in c.items()}
    mc["m"] = statistics.mean(c["m"])
    ok = m["a"] / m["b"] <= 1.0 and m["m"] / m["b"] <= 1.0 and ca == cb
    failed |= not ok
    print(f"{tree:9} {name:22} {m['a']*1000:5.0f}ms {m['m']*1000:5.0f}ms {m['e']*1000:5.0f}ms {m['b']*1000:5.0f}ms "
          f"{m['a']/m['b']:7.2f}× {m['m']/m['b']:7.2f}× {m['e']/m['b']:7.2f}× "
          f"{mc['a']/mc['b']:7.2f}× {mc['m']/mc['b']:7.2f}× {mc['e']/mc['b']:7.2f}×  "
          f"{ca:>6}/{cb:<6} {'ok' if ok else 'MISSED'}")
for srv in servers.values():
    srv.close()
print(f"spillway peak RSS: {peak/1024:.1f} MiB; load after: {open('/proc/loadavg').read().split()[:3]}")
sys.exit(1 if failed else 0)
PY
