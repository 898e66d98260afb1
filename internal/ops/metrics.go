package ops

import (
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// State is what the server holds at one instant, read at each scrape.
type State struct {
	Sessions      int
	CallsInFlight int
	JobsRunning   int
	JobsWaiting   int // waiting for input
	SpillBytes    int64
	// SandboxLayers counts the sessions confined by each sandbox layer
	// ("landlock", "scopes", "namespaces", …).
	SandboxLayers map[string]int
	Draining      bool
}

// Metrics are the server's Prometheus metrics, in a registry of their own
// (with the Go runtime's and the process's).
type Metrics struct {
	reg *prometheus.Registry

	sessionsCreated prometheus.Counter
	sessionsExpired prometheus.Counter
	calls           *prometheus.CounterVec
	callDuration    *prometheus.HistogramVec
	outputBytes     *prometheus.CounterVec
}

// NewMetrics returns the metrics of a server of the given version; state
// is called once per scrape for the gauges.
func NewMetrics(version, node string, state func() State) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		sessionsCreated: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "spillway_sessions_created_total",
			Help: "MCP sessions started.",
		}),
		sessionsExpired: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "spillway_sessions_expired_total",
			Help: "MCP sessions ended by the idle timeout.",
		}),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "spillway_calls_total",
			Help: "Tool calls answered, by tool and outcome (ok, or error for an isError result).",
		}, []string{"tool", "outcome"}),
		callDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "spillway_call_duration_seconds",
			Help: "Time from a tool call's arrival to its result, by tool.",
			// 1 ms to about a minute: a read takes milliseconds, a bash
			// call up to its timeout (50 s under MCP).
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 9),
		}, []string{"tool"}),
		outputBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "spillway_output_bytes_total",
			Help: "Bytes of tool output: shown to the model, or spilled to files (the whole of each cut stream).",
		}, []string{"kind"}),
	}
	for _, kind := range []string{"shown", "spilled"} {
		m.outputBytes.WithLabelValues(kind)
	}
	build := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "spillway_build_info",
		Help:        "Always 1; the labels say what is running.",
		ConstLabels: prometheus.Labels{"version": version, "goversion": runtime.Version(), "node": node},
	})
	build.Set(1)
	m.reg.MustRegister(
		m.sessionsCreated, m.sessionsExpired, m.calls, m.callDuration, m.outputBytes, build,
		stateCollector{state},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// SessionCreated counts a new session.
func (m *Metrics) SessionCreated() { m.sessionsCreated.Inc() }

// SessionExpired counts a session ended by the idle timeout.
func (m *Metrics) SessionExpired() { m.sessionsExpired.Inc() }

// Call counts one answered call.
func (m *Metrics) Call(c Call) {
	outcome := "ok"
	if c.IsError {
		outcome = "error"
	}
	m.calls.WithLabelValues(c.Tool, outcome).Inc()
	m.callDuration.WithLabelValues(c.Tool).Observe(c.Duration.Seconds())
	m.outputBytes.WithLabelValues("shown").Add(float64(c.BytesShown))
	m.outputBytes.WithLabelValues("spilled").Add(float64(c.BytesSpilled))
}

// A Call is what the metrics and the audit log learn of one tool call.
type Call struct {
	Start    time.Time
	Session  string // the session's id: hashed before it is written
	Tool     string
	Command  string // bash: the command
	Path     string // read, ls, grep, find: the path
	Pattern  string // grep, find
	PID      int    // the job a check, write or kill reached
	Cwd      string
	ExitCode *int
	IsError  bool
	Duration time.Duration
	// BytesShown is the size of the text the model reads; BytesSpilled
	// the whole size of each stream that was cut and saved to a file.
	BytesShown   int64
	BytesSpilled int64
	SpillPaths   []string
	Sandbox      string // the layers, "landlock+scopes+namespaces"; "" unconfined
}

// stateCollector turns a State into gauges at each scrape: the server
// keeps no gauges of its own up to date.
type stateCollector struct{ state func() State }

var (
	sessionsDesc  = prometheus.NewDesc("spillway_sessions", "MCP sessions open.", nil, nil)
	inFlightDesc  = prometheus.NewDesc("spillway_calls_in_flight", "Tool calls being answered.", nil, nil)
	jobsDesc      = prometheus.NewDesc("spillway_jobs", "Background jobs alive, by state (running, waiting_for_input).", []string{"state"}, nil)
	spillDesc     = prometheus.NewDesc("spillway_spill_bytes", "Bytes the sessions' spill files hold, which count against each session's spill budget.", nil, nil)
	sandboxDesc   = prometheus.NewDesc("spillway_sandbox_layer_sessions", "Sessions whose commands run under each sandbox layer.", []string{"layer"}, nil)
	drainingDesc  = prometheus.NewDesc("spillway_draining", "1 while the server drains (no new sessions), else 0.", nil, nil)
	allStateDescs = []*prometheus.Desc{sessionsDesc, inFlightDesc, jobsDesc, spillDesc, sandboxDesc, drainingDesc}
)

func (c stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range allStateDescs {
		ch <- d
	}
}

func (c stateCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.state()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	gauge(sessionsDesc, float64(s.Sessions))
	gauge(inFlightDesc, float64(s.CallsInFlight))
	gauge(jobsDesc, float64(s.JobsRunning), "running")
	gauge(jobsDesc, float64(s.JobsWaiting), "waiting_for_input")
	gauge(spillDesc, float64(s.SpillBytes))
	for layer, n := range s.SandboxLayers {
		gauge(sandboxDesc, float64(n), layer)
	}
	draining := 0.0
	if s.Draining {
		draining = 1
	}
	gauge(drainingDesc, draining)
}

// Layers splits a toolset's sandbox layers ("landlock+scopes") into names.
func Layers(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "+")
}
