package proc

import (
	"bytes"
	"os"
	"strconv"
)

// eachProc calls fn with every process id in /proc until fn returns false.
func eachProc(fn func(pid int) bool) {
	d, err := os.Open("/proc")
	if err != nil {
		return
	}
	defer d.Close()
	for {
		names, err := d.Readdirnames(256)
		for _, n := range names {
			pid, err := strconv.Atoi(n)
			if err != nil || pid <= 0 {
				continue
			}
			if !fn(pid) {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// procStat holds the fields of /proc/PID/stat that we use.
type procStat struct {
	state byte
	ppid  int
	pgrp  int
	tty   int    // the controlling terminal's device number, 0 for none
	start uint64 // in clock ticks since boot: tells a reused pid apart
}

// live reports whether the process is neither a zombie nor dead.
func (st procStat) live() bool { return st.state != 'Z' && st.state != 'X' }

// StatFields returns the fields of /proc/PID/stat (proc_pid_stat(5)) from
// the state on: f[0] is field 3, f[n-3] field n. The command name, field
// 2, may hold spaces and parentheses, so the fields are counted from its
// last ')'.
func StatFields(pid int) ([][]byte, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil, false
	}
	return bytes.Fields(b[i+1:]), true
}

// readStat parses /proc/PID/stat: "pid (comm) state ppid pgrp session
// tty_nr ...".
func readStat(pid int) (procStat, bool) {
	f, ok := StatFields(pid)
	if !ok {
		return procStat{}, false
	}
	// Fields from the state on: state ppid pgrp session tty_nr tpgid
	// flags minflt cminflt majflt cmajflt utime stime cutime cstime
	// priority nice num_threads itrealvalue starttime.
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	tty, err3 := strconv.Atoi(string(f[4]))
	start, err4 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], ppid: ppid, pgrp: pgrp, tty: tty, start: start}, true
}
