package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// underSpillway names the spillway server this process runs under (an
// ancestor running spillway mcp or spillway serve), or "". A command a
// model runs through spillway must not answer the person's questions.
// Without --sandbox this is no boundary (the command can write the
// state file itself); it keeps the question from being put to a
// terminal the model types into.
func underSpillway() string {
	pid := os.Getppid()
	for range 64 {
		if pid <= 1 {
			return ""
		}
		if cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
			args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
			if len(args) > 0 && strings.HasPrefix(filepath.Base(args[0]), "spillway") {
				for _, a := range args[1:] {
					if a == "mcp" || a == "serve" {
						return fmt.Sprintf("spillway %s (pid %d)", a, pid)
					}
				}
			}
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return ""
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			return ""
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			return ""
		}
		pid, _ = strconv.Atoi(f[1])
	}
	return ""
}
