package proc

import (
	"bytes"
	"encoding/binary"

	"golang.org/x/sys/unix"
)

// hasEnv reports whether the environment pid started with holds the
// entry kv ("NAME=VALUE"), read with sysctl kern.procargs2 as ps -E does;
// a process of another user is not readable.
func hasEnv(pid int, kv string) bool {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil || len(b) < 4 {
		return false
	}
	// argc, the executable's path, NUL padding, argc arguments, then the
	// environment, each string NUL-terminated.
	argc := int(binary.LittleEndian.Uint32(b))
	rest := b[4:]
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return false
	}
	rest = bytes.TrimLeft(rest[i:], "\x00")
	for n := 0; n < argc; n++ {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
	}
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i <= 0 {
			return false
		}
		if string(rest[:i]) == kv {
			return true
		}
		rest = rest[i+1:]
	}
	return false
}
