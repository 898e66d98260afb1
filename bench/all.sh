#!/usr/bin/env bash
# bench/all.sh — every benchmark of docs/performance.md, one after another
# in one run, after a header that names the machine:
#
#   bench/sandbox.sh     sandboxed calls against bubblewrap (when present)
#   bench/search.sh      grep and find against ripgrep and fd
#   bench/read.sh        read against wc -l
#   bench/bash-seq.sh    a 1.4 GB flood against a bare pipe, wall and CPU
#   go test ./output/ -run '^$' -bench . -benchmem   the pipeline
#
# Each script prints the commands it times. A script that misses its
# target does not stop the others; the exit status is 1 if any missed.
#
# Usage: bench/all.sh        (from anywhere in the repository)
set -uo pipefail

cd "$(dirname "$0")/.."

echo "== the machine"
echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "cpu:      $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores online)"
echo "memory:   $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
echo "kernel:   $(uname -srm)"
echo "go:       $(go version)"
echo "spillway: $(git describe --always --dirty 2>/dev/null || echo '?')"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"

status=0
# step TITLE COMMAND...: runs one benchmark, printing its command first.
step() {
	local title=$1
	shift
	echo
	echo "== $title"
	echo "+ $*"
	"$@" || {
		echo "($title: exit $?)"
		status=1
	}
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

if [ -x bench/sandbox.sh ]; then
	step "sandboxed calls" bench/sandbox.sh
else
	echo
	echo "== sandboxed calls: bench/sandbox.sh is not in this tree, skipped"
fi
step "search" bench/search.sh
step "read" bench/read.sh
step "the flood" bench/bash-seq.sh
step "the pipeline" go test ./output/ -run '^$' -bench . -benchmem -count=1
exit $status
