//go:build unix && !linux

package proc

// isZombie reports whether pid is a zombie.
func isZombie(pid int) bool {
	tab, err := readTable()
	if err != nil {
		return false
	}
	for _, e := range tab {
		if e.pid == pid {
			return !e.live
		}
	}
	return false
}
