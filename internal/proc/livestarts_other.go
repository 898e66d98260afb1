//go:build unix && !linux

package proc

import "slices"

// liveStarts returns the start time of each of pids that names a live
// process (not a zombie), from one reading of the process table.
func liveStarts(pids []int) (map[int]uint64, error) {
	tab, err := readTable()
	if err != nil {
		return nil, err
	}
	starts := make(map[int]uint64, len(pids))
	for _, e := range tab {
		if e.live && slices.Contains(pids, e.pid) {
			starts[e.pid] = e.start
		}
	}
	return starts, nil
}
