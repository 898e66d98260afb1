//go:build linux

package proc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// hasEnv reports whether the environment pid started with holds the
// entry kv ("NAME=VALUE"); a process of another user is not readable.
//
//lint:ignore U1000 used where the portable tracking is built (family.go)
func hasEnv(pid int, kv string) bool {
	name, _, _ := strings.Cut(kv, "=")
	return envEntry(pid, name) == kv
}

// envEntry returns the entry "NAME=VALUE" of the environment pid started
// with, or "" when it has none or is not readable.
func envEntry(pid int, name string) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	for _, e := range bytes.Split(b, []byte{0}) {
		if len(e) > len(name) && e[len(name)] == '=' && string(e[:len(name)]) == name {
			return string(e)
		}
	}
	return ""
}
