package ops

import (
	"os"
	"strconv"
	"strings"

	"github.com/spillway-dev/spillway/internal/proc"
)

// userHZ is the unit of the clock ticks in /proc: 100 a second on every
// architecture Go runs Linux on.
const userHZ = 100

// appendProcFamilies adds what /proc tells of this process: its memory,
// its open files and when it started.
func appendProcFamilies(fams []family) []family {
	if stat, ok := readProcStat(); ok {
		fams = append(fams,
			gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.", stat.vsize),
			gauge("process_resident_memory_bytes", "Resident memory size in bytes.", stat.rss*float64(os.Getpagesize())))
		if boot, ok := bootTime(); ok {
			fams = append(fams, gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", boot+stat.start/userHZ))
		}
	}
	if d, err := os.Open("/proc/self/fd"); err == nil {
		names, err := d.Readdirnames(-1)
		d.Close()
		if err == nil {
			fams = append(fams, gauge("process_open_fds", "Number of open file descriptors.", float64(len(names))))
		}
	}
	return fams
}

// procStat is what the metrics read of /proc/self/stat.
type procStat struct {
	start float64 // clock ticks after boot
	vsize float64 // bytes
	rss   float64 // pages
}

// readProcStat reads this process's /proc/PID/stat.
func readProcStat() (procStat, bool) {
	f, ok := proc.StatFields(os.Getpid())
	if !ok || len(f) < 22 {
		return procStat{}, false
	}
	bad := false
	field := func(n int) float64 {
		v, err := strconv.ParseFloat(string(f[n-3]), 64)
		bad = bad || err != nil
		return v
	}
	s := procStat{start: field(22), vsize: field(23), rss: field(24)}
	return s, !bad
}

// bootTime returns when the system booted, in seconds since the epoch,
// from the btime line of /proc/stat.
func bootTime() (float64, bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	_, rest, ok := strings.Cut(string(b), "\nbtime ")
	if !ok {
		return 0, false
	}
	line, _, _ := strings.Cut(rest, "\n")
	t, err := strconv.ParseFloat(line, 64)
	return t, err == nil
}
