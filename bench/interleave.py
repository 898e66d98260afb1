#!/usr/bin/env python3
# bench/interleave.py RUNS DIR "CMD ;; CMD ;; … ;; REF" — runs the commands in turn
# (A B … REF A B … REF …) in DIR after two warm-up rounds, output discarded, and
# prints each one's median wall and CPU (user+sys, from wait4) and its ratio
# to the last command's: the ratios of docs/performance.md, in one run.
import os, sys, time, statistics, shlex
# interleaved runs: inter.py RUNS CWD -- cmd1 ;; cmd2 ;; ...
runs=int(sys.argv[1]); cwd=sys.argv[2]
cmds=[shlex.split(c) for c in " ".join(sys.argv[3:]).split(";;")]
devnull=os.open(os.devnull, os.O_WRONLY)
os.chdir(cwd)
def run(cmd):
    t0=time.perf_counter()
    pid=os.posix_spawnp(cmd[0], cmd, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    _, st, ru = os.wait4(pid, 0)
    return time.perf_counter()-t0, ru.ru_utime+ru.ru_stime
w=[[] for _ in cmds]; c=[[] for _ in cmds]
for i in range(2):
    for cmd in cmds: run(cmd)
for i in range(runs):
    for j,cmd in enumerate(cmds):
        a,b=run(cmd); w[j].append(a); c[j].append(b)
ref=len(cmds)-1
print("load", open('/proc/loadavg').read().split()[:3])
for j,cmd in enumerate(cmds):
    mw=statistics.median(w[j]); mc=statistics.median(c[j])
    print(f"{mw*1000:7.1f} ms wall {mc*1000:7.1f} ms cpu  wall/ref {mw/statistics.median(w[ref]):.3f}  cpu/ref {mc/statistics.median(c[ref]):.3f}  {shlex.join(cmd)}")
