package ops

import (
	"runtime"
	"runtime/debug"
	"time"
)

// runtimeFamilies returns the Go runtime's metrics that dashboards
// commonly read, named and described as Prometheus' Go collector does.
func runtimeFamilies() []family {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gc := debug.GCStats{PauseQuantiles: make([]time.Duration, 5)} // min, 25%, 50%, 75%, max
	debug.ReadGCStats(&gc)
	pauses := series{sum: gc.PauseTotal.Seconds(), count: uint64(gc.NumGC)}
	for i, q := range gc.PauseQuantiles {
		pauses.points = append(pauses.points, point{float64(i) / 4, q.Seconds()})
	}
	threads, _ := runtime.ThreadCreateProfile(nil)
	return []family{
		gauge("go_goroutines", "Number of goroutines that currently exist.", float64(runtime.NumGoroutine())),
		gauge("go_threads", "Number of OS threads created.", float64(threads)),
		{
			name: "go_info", help: "Information about the Go environment.", typ: "gauge",
			labels: []string{"version"},
			series: []series{{values: []string{runtime.Version()}, value: 1}},
		},
		{
			name: "go_gc_duration_seconds", typ: "summary",
			help:   "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles.",
			series: []series{pauses},
		},
		gauge("go_memstats_last_gc_time_seconds", "Number of seconds since 1970 of last garbage collection.", float64(gc.LastGC.UnixNano())/1e9),
		gauge("go_memstats_alloc_bytes", "Number of bytes allocated in heap and currently in use. Equals to /memory/classes/heap/objects:bytes.", float64(ms.Alloc)),
		counter("go_memstats_alloc_bytes_total", "Total number of bytes allocated in heap until now, even if released already. Equals to /gc/heap/allocs:bytes.", float64(ms.TotalAlloc)),
		gauge("go_memstats_sys_bytes", "Number of bytes obtained from system. Equals to /memory/classes/total:byte.", float64(ms.Sys)),
		gauge("go_memstats_heap_inuse_bytes", "Number of heap bytes that are in use. Equals to /memory/classes/heap/objects:bytes + /memory/classes/heap/unused:bytes", float64(ms.HeapInuse)),
		gauge("go_memstats_heap_objects", "Number of currently allocated objects. Equals to /gc/heap/objects:objects.", float64(ms.HeapObjects)),
		gauge("go_memstats_next_gc_bytes", "Number of heap bytes when next garbage collection will take place. Equals to /gc/heap/goal:bytes.", float64(ms.NextGC)),
	}
}
