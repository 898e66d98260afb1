//go:build unix

package ops

import "syscall"

// appendRusageFamilies adds the metrics the system calls every Unix has
// give: the CPU time used and the open file limit.
func appendRusageFamilies(fams []family) []family {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		cpu := float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
		fams = append(fams, counter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", cpu))
	}
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil {
		fams = append(fams, gauge("process_max_fds", "Maximum number of open file descriptors.", float64(lim.Cur)))
	}
	return fams
}
