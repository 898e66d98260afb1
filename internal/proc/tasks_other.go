//go:build !linux

package proc

// TaskLimit returns 0: a job's tasks are capped on Linux only (there is
// no prlimit elsewhere, and no helper outside the Linux sandbox).
func TaskLimit(int) uint64 { return 0 }

// LimitTasks does nothing here.
func (g *Group) LimitTasks(int) {}

func spareThreads() {}
