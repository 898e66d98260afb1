//go:build linux && spillway_portable

package proc

// readTable reads the process table from /proc/PID/stat: the portable
// tracking, run on Linux so that CI exercises it.
func readTable() ([]procEntry, error) {
	var tab []procEntry
	eachProc(func(pid int) bool {
		if st, ok := readStat(pid); ok {
			tab = append(tab, procEntry{pid: pid, ppid: st.ppid, pgid: st.pgrp, live: st.live(), start: st.start})
		}
		return true
	})
	return tab, nil
}
