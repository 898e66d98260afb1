//go:build linux

package proc

// liveStarts returns the start time of each of pids that names a live
// process (neither a zombie nor dead), from /proc/PID/stat.
func liveStarts(pids []int) (map[int]uint64, error) {
	starts := make(map[int]uint64, len(pids))
	for _, pid := range pids {
		if st, ok := readStat(pid); ok && st.live() {
			starts[pid] = st.start
		}
	}
	return starts, nil
}
