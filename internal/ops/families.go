package ops

import "github.com/spillway-dev/spillway/internal/proc"

// families returns every metric at this instant: the server's own, its
// state's gauges (read now, so never stale), the Go runtime's and the
// process's.
func (m *Metrics) families() []family {
	fams := []family{
		counter("spillway_sessions_created_total", "MCP sessions started.", float64(m.sessionsCreated.Load())),
		counter("spillway_sessions_expired_total", "MCP sessions ended by the idle timeout.", float64(m.sessionsExpired.Load())),
		{
			name: "spillway_build_info", help: "Always 1; the labels say what is running.", typ: "gauge",
			labels: []string{"version", "goversion", "node"},
			series: []series{{values: m.build, value: 1}},
		},
	}
	fams = append(fams, m.callFamilies()...)
	fams = append(fams, stateFamilies(m.state())...)
	if cpu, ok := proc.CgroupsCPU(); ok {
		fams = append(fams, counter("spillway_jobs_cpu_seconds_total",
			"CPU time the sessions' commands have used, counted by their cgroups (only where cgroups are in use: spillway version says).", cpu.Seconds()))
	}
	fams = append(fams, runtimeFamilies()...)
	return appendProcessFamilies(fams)
}

// callFamilies returns what Call counts.
func (m *Metrics) callFamilies() []family {
	calls := family{
		name: "spillway_calls_total", typ: "counter",
		help:   "Tool calls answered, by tool and outcome (ok, or error for an isError result).",
		labels: []string{"tool", "outcome"},
	}
	durations := family{
		name: "spillway_call_duration_seconds", typ: "histogram",
		help:   "Time from a tool call's arrival to its result, by tool.",
		labels: []string{"tool"},
	}
	output := family{
		name: "spillway_output_bytes_total", typ: "counter",
		help:   "Bytes of tool output: shown to the model, or spilled to files (the whole of each cut stream).",
		labels: []string{"kind"},
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, n := range m.calls {
		calls.series = append(calls.series, series{values: []string{k.tool, k.outcome}, value: float64(n)})
	}
	for tool, h := range m.durations {
		durations.series = append(durations.series, h.series(tool))
	}
	output.series = []series{
		{values: []string{"shown"}, value: float64(m.bytesShown)},
		{values: []string{"spilled"}, value: float64(m.bytesSpilled)},
	}
	return []family{calls, durations, output}
}

// stateFamilies turns a State into gauges: the server keeps no gauges of
// its own up to date.
func stateFamilies(s State) []family {
	draining := 0.0
	if s.Draining {
		draining = 1
	}
	layers := family{
		name: "spillway_sandbox_layer_sessions", typ: "gauge",
		help:   "Sessions whose commands run under each sandbox layer.",
		labels: []string{"layer"},
	}
	for layer, n := range s.SandboxLayers {
		layers.series = append(layers.series, series{values: []string{layer}, value: float64(n)})
	}
	return []family{
		gauge("spillway_sessions", "MCP sessions open.", float64(s.Sessions)),
		gauge("spillway_calls_in_flight", "Tool calls being answered.", float64(s.CallsInFlight)),
		{
			name: "spillway_jobs", typ: "gauge",
			help:   "Background jobs alive, by state (running, waiting_for_input).",
			labels: []string{"state"},
			series: []series{
				{values: []string{"running"}, value: float64(s.JobsRunning)},
				{values: []string{"waiting_for_input"}, value: float64(s.JobsWaiting)},
			},
		},
		gauge("spillway_spill_bytes", "Bytes the sessions' spill files hold, which count against each session's spill budget.", float64(s.SpillBytes)),
		layers,
		gauge("spillway_draining", "1 while the server drains (no new sessions), else 0.", draining),
	}
}

// gauge and counter return a family of one series without labels.
func gauge(name, help string, v float64) family {
	return family{name: name, help: help, typ: "gauge", series: []series{{value: v}}}
}

func counter(name, help string, v float64) family {
	return family{name: name, help: help, typ: "counter", series: []series{{value: v}}}
}
