# bench/need.sh — sourced by the bench scripts (from the repository's
# root). `need COMMAND:PACKAGE ...` installs, from Debian, the package of
# each command that is missing (with sudo unless root). The packages are
# references to measure against, never part of spillway.
need() {
	local missing=() pair
	for pair in "$@"; do
		command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
	done
	((${#missing[@]})) || return 0
	echo "installing ${missing[*]}" >&2
	local sudo_cmd=()
	[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
	"${sudo_cmd[@]}" apt-get update -qq
	"${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}
