//go:build !linux

package shell

// TaskLimit returns 0: a job's tasks are capped on Linux only (there is
// no prlimit elsewhere, and no helper outside the Linux sandbox).
func TaskLimit(int) uint64 { return 0 }

func limitTasks(int, uint64) {}

func spareThreads() {}
