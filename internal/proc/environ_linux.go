//go:build linux

package proc

import (
	"bytes"
	"os"
	"strconv"
)

// hasEnv reports whether the environment pid started with holds the
// entry kv ("NAME=VALUE"); a process of another user is not readable.
func hasEnv(pid int, kv string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, e := range bytes.Split(b, []byte{0}) {
		if string(e) == kv {
			return true
		}
	}
	return false
}
