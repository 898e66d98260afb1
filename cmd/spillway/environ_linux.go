package main

import (
	"bytes"
	"errors"
	"os"
	"strconv"

	"github.com/spillway-dev/spillway/internal/proc"
)

// scrubEnviron overwrites with NUL bytes, in this process's memory, every
// entry NAME=… of the environment block the process started with. The
// kernel shows that block as /proc/PID/environ for the process's whole
// life, to its user and to root; os.Unsetenv changes only Go's view of
// the environment, not the block. The block keeps its size and the other
// entries their places, since Go's environment strings point into it; so
// read and copy (strings.Clone) the value before.
func scrubEnviron(name string) error {
	f, ok := proc.StatFields(os.Getpid())
	// f[n-3] is field n: env_start and env_end are fields 50 and 51.
	if !ok || len(f) < 49 {
		return errors.New("/proc/self/stat does not say where the environment is")
	}
	start, err1 := strconv.ParseInt(string(f[47]), 10, 64)
	end, err2 := strconv.ParseInt(string(f[48]), 10, 64)
	if err1 != nil || err2 != nil || start <= 0 || end <= start {
		return errors.New("/proc/self/stat does not say where the environment is")
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer mem.Close()
	block := make([]byte, end-start)
	if _, err := mem.ReadAt(block, start); err != nil {
		return err
	}
	prefix := []byte(name + "=")
	for at := 0; at < len(block); {
		n := bytes.IndexByte(block[at:], 0)
		if n < 0 {
			n = len(block) - at
		}
		if bytes.HasPrefix(block[at:at+n], prefix) {
			if _, err := mem.WriteAt(make([]byte, n), start+int64(at)); err != nil {
				return err
			}
		}
		at += n + 1
	}
	return nil
}
