package proc

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
)

// hiddenSleeper reports whether a process of group pgid is asleep and
// hides what it waits for: its system call cannot be read. A set-user-ID
// program run by a server that is not root is such a process, and sudo,
// asking for a password, is the one that matters: its process state is
// readable, its descriptors and system call are not. Only with the
// terminal set to read a secret is that taken as waiting for it.
func hiddenSleeper(pgid int) bool {
	for _, pid := range freshSnapshot(0).members(pgid) {
		st, ok := readStat(pid)
		if !ok || st.pgrp != pgid || st.state != 'S' {
			continue
		}
		_, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/syscall")
		if errors.Is(err, fs.ErrPermission) {
			return true
		}
	}
	return false
}
