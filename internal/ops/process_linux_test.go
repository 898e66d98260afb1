package ops

import (
	"os"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// The process's metrics read what Prometheus' own process collector reads.
func TestProcessMetricsMatchPrometheus(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	theirs := map[string]float64{}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range mfs {
		m := f.GetMetric()[0]
		theirs[f.GetName()] = m.GetGauge().GetValue() + m.GetCounter().GetValue()
	}
	ours := map[string]float64{}
	for _, f := range parse(t, scrape(t, testMetrics())) {
		m := f.GetMetric()[0]
		ours[f.GetName()] = m.GetGauge().GetValue() + m.GetCounter().GetValue()
	}

	for _, name := range []string{"process_max_fds", "process_start_time_seconds"} {
		if ours[name] != theirs[name] {
			t.Errorf("%s %v, Prometheus reads %v", name, ours[name], theirs[name])
		}
	}
	// These move between the two reads, a little.
	near := func(name string, slack float64) {
		if d := ours[name] - theirs[name]; d < -slack || d > slack || ours[name] <= 0 {
			t.Errorf("%s %v, Prometheus reads %v", name, ours[name], theirs[name])
		}
	}
	near("process_open_fds", 2)
	near("process_resident_memory_bytes", 64<<20)
	near("process_virtual_memory_bytes", 256<<20)
	// /proc counts CPU time in hundredths of a second, getrusage finer.
	near("process_cpu_seconds_total", 0.5)

	// Files opened show in process_open_fds. (A regular file: a device
	// would have the runtime open its poller's descriptors too.)
	before := ours["process_open_fds"]
	for range 5 {
		f, err := os.Open(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
	}
	after := parse(t, scrape(t, testMetrics()))["process_open_fds"].GetMetric()[0].GetGauge().GetValue()
	if after != before+5 {
		t.Errorf("process_open_fds %v after opening 5 files, %v before", after, before)
	}
}
