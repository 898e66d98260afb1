# bench/sandboxed.sh — sourced, from the repository's root, by the bench
# scripts that drive spillway under --root W --sandbox (bench/sandbox.sh,
# bench/execdeny.sh). It makes a scratch directory $out, removed at exit,
# holding the root $W, the spillway binary $out/spillway (this tree's, or
# a copy of $SPILLWAY_BIN to measure another build) and
# $out/mcp-roundtrip (bench/mcp-roundtrip); then prints the machine line
# every figure is quoted with. run CMD echoes CMD on stderr, then runs it.
run() {
	echo "+ $*" >&2
	"$@"
}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
W="$out/W"
mkdir "$W"
if [ -n "${SPILLWAY_BIN:-}" ]; then
	cp "$SPILLWAY_BIN" "$out/spillway" # another build, to compare
else
	run go build -o "$out/spillway" ./cmd/spillway
fi
run go build -o "$out/mcp-roundtrip" ./bench/mcp-roundtrip
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), Linux $(uname -r), $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
