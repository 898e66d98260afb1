package ops

import (
	"bytes"
	"math"
	"net/http/httptest"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape serves m's metrics once and returns the body.
func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("GET /metrics: %d", rec.Code)
	}
	if got := rec.Header().Get("Content-Type"); got != "text/plain; version=0.0.4; charset=utf-8" {
		t.Errorf("Content-Type %q, want the text format's", got)
	}
	return rec.Body.String()
}

// parse reads text as Prometheus does.
func parse(t *testing.T, text string) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the metrics do not parse: %v\n%s", err, text)
	}
	return fams
}

// toText writes the named families as Prometheus' own encoder does.
func toText(t *testing.T, fams map[string]*dto.MetricFamily, names ...string) string {
	t.Helper()
	var b bytes.Buffer
	for _, name := range names {
		if fams[name] == nil {
			t.Errorf("no %s in the metrics", name)
			continue
		}
		if _, err := expfmt.MetricFamilyToText(&b, fams[name]); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func testMetrics() *Metrics {
	return NewMetrics("v1.2.3", "node-1", func() State {
		return State{Sessions: 3, JobsRunning: 2, JobsWaiting: 1, SpillBytes: 4096, SandboxLayers: map[string]int{"scopes": 1, "landlock": 3}}
	})
}

// The metrics follow Prometheus' naming conventions, as its linter checks
// them (units in the name, _total on counters, help on every one), and
// the gauges show the state at the scrape.
func TestMetricsLint(t *testing.T) {
	m := testMetrics()
	m.Call(Call{Tool: "ls", Duration: time.Millisecond, BytesShown: 10})
	fams := parse(t, scrape(t, m))
	var all []*dto.MetricFamily
	for _, f := range fams {
		all = append(all, f)
	}
	problems, err := promlint.NewWithMetricFamilies(all).Lint()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
	want := `
# HELP spillway_jobs Background jobs alive, by state (running, waiting_for_input).
# TYPE spillway_jobs gauge
spillway_jobs{state="running"} 2
spillway_jobs{state="waiting_for_input"} 1
# HELP spillway_sandbox_layer_sessions Sessions whose commands run under each sandbox layer.
# TYPE spillway_sandbox_layer_sessions gauge
spillway_sandbox_layer_sessions{layer="landlock"} 3
spillway_sandbox_layer_sessions{layer="scopes"} 1
# HELP spillway_sessions MCP sessions open.
# TYPE spillway_sessions gauge
spillway_sessions 3
`
	names := []string{"spillway_jobs", "spillway_sandbox_layer_sessions", "spillway_sessions"}
	if got, want := toText(t, fams, names...), toText(t, parse(t, want), names...); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Every metric the server, its docs and bench/fleet name is there, with
// its type.
func TestMetricsNamesAndTypes(t *testing.T) {
	m := testMetrics()
	m.Call(Call{Tool: "ls", Duration: time.Millisecond})
	fams := parse(t, scrape(t, m))
	want := map[string]dto.MetricType{
		"spillway_sessions":               dto.MetricType_GAUGE,
		"spillway_sessions_created_total": dto.MetricType_COUNTER,
		"spillway_sessions_expired_total": dto.MetricType_COUNTER,
		"spillway_calls_total":            dto.MetricType_COUNTER,
		"spillway_call_duration_seconds":  dto.MetricType_HISTOGRAM,
		"spillway_calls_in_flight":        dto.MetricType_GAUGE,
		"spillway_output_bytes_total":     dto.MetricType_COUNTER,
		"spillway_jobs":                   dto.MetricType_GAUGE,
		"spillway_spill_bytes":            dto.MetricType_GAUGE,
		"spillway_sandbox_layer_sessions": dto.MetricType_GAUGE,
		"spillway_draining":               dto.MetricType_GAUGE,
		"spillway_build_info":             dto.MetricType_GAUGE,
		"go_goroutines":                   dto.MetricType_GAUGE,
		"go_threads":                      dto.MetricType_GAUGE,
		"go_info":                         dto.MetricType_GAUGE,
		"go_gc_duration_seconds":          dto.MetricType_SUMMARY,
		"go_memstats_alloc_bytes":         dto.MetricType_GAUGE,
		"go_memstats_sys_bytes":           dto.MetricType_GAUGE,
		"go_memstats_heap_inuse_bytes":    dto.MetricType_GAUGE,
		"process_cpu_seconds_total":       dto.MetricType_COUNTER,
		"process_max_fds":                 dto.MetricType_GAUGE,
	}
	for name, typ := range want {
		if f := fams[name]; f == nil {
			t.Errorf("no %s", name)
		} else if f.GetType() != typ {
			t.Errorf("%s is a %v, want a %v", name, f.GetType(), typ)
		}
	}
	build := fams["spillway_build_info"].GetMetric()[0]
	if got := labels(build); got != `goversion="`+runtime.Version()+`",node="node-1",version="v1.2.3"` {
		t.Errorf("spillway_build_info labels %s", got)
	}
	if v := fams["go_goroutines"].GetMetric()[0].GetGauge().GetValue(); v < 1 {
		t.Errorf("go_goroutines %v", v)
	}
}

func labels(m *dto.Metric) string {
	var s []string
	for _, l := range m.GetLabel() {
		s = append(s, l.GetName()+`="`+l.GetValue()+`"`)
	}
	return strings.Join(s, ",")
}

// What is served is byte for byte what Prometheus' own encoder writes for
// it: families sorted by name, labels by name, series by label values,
// numbers and escapes alike.
func TestMetricsTextIsPrometheus(t *testing.T) {
	m := testMetrics()
	m.SessionCreated()
	for _, c := range []Call{
		{Tool: "read", Duration: 2 * time.Millisecond, BytesShown: 1234567, BytesSpilled: 12345678, IsError: true},
		{Tool: "bash", Duration: 3 * time.Second},
		{Tool: "ls", Duration: time.Millisecond},
		{Tool: "bash", Duration: 10 * time.Millisecond},
	} {
		m.Call(c)
	}
	text := scrape(t, m)
	fams := parse(t, text)
	var names []string
	for name := range fams {
		names = append(names, name)
	}
	slices.Sort(names)
	if got := toText(t, fams, names...); got != text {
		t.Errorf("served\n%s\nPrometheus writes\n%s", text, got)
	}
}

// The call duration histogram has the bounds 0.001×4^k for k < 9 and
// +Inf; each bucket counts the calls up to its bound, the count and sum
// all of them.
func TestCallDurationBuckets(t *testing.T) {
	m := testMetrics()
	seconds := []float64{0.0005, 0.001, 0.002, 0.5, 0.5, 30, 100}
	sum := 0.0
	for _, s := range seconds {
		m.Call(Call{Tool: "bash", Duration: time.Duration(s * float64(time.Second))})
		sum += s
	}
	fams := parse(t, scrape(t, m))
	hs := fams["spillway_call_duration_seconds"].GetMetric()
	if len(hs) != 1 || labels(hs[0]) != `tool="bash"` {
		t.Fatalf("series %v, want tool=bash alone", hs)
	}
	h := hs[0].GetHistogram()
	buckets := h.GetBucket()
	if len(buckets) != 10 {
		t.Fatalf("%d buckets, want 9 and +Inf", len(buckets))
	}
	for k, b := range buckets {
		bound := 0.001 * math.Pow(4, float64(k))
		if k == 9 {
			bound = math.Inf(1)
		}
		if b.GetUpperBound() != bound {
			t.Errorf("bucket %d: le %v, want %v", k, b.GetUpperBound(), bound)
		}
		var want uint64
		for _, s := range seconds {
			if s <= bound {
				want++
			}
		}
		if b.GetCumulativeCount() != want {
			t.Errorf("le %v: %d calls, want %d", bound, b.GetCumulativeCount(), want)
		}
	}
	if h.GetSampleCount() != uint64(len(seconds)) {
		t.Errorf("_count %d, want %d", h.GetSampleCount(), len(seconds))
	}
	if math.Abs(h.GetSampleSum()-sum) > 1e-9 {
		t.Errorf("_sum %v, want %v", h.GetSampleSum(), sum)
	}
}

// Calls counted from many goroutines at once are all counted.
func TestCallsConcurrent(t *testing.T) {
	m := testMetrics()
	const goroutines, calls = 8, 500
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range calls {
				tool := []string{"ls", "read"}[g%2]
				m.Call(Call{Tool: tool, IsError: i%5 == 0, Duration: time.Millisecond, BytesShown: 3, BytesSpilled: 7})
				if i%100 == 0 {
					m.SessionCreated()
					writeText(new(bytes.Buffer), m.families()) // a scrape meanwhile
				}
			}
		})
	}
	wg.Wait()
	fams := parse(t, scrape(t, m))
	got := map[string]float64{}
	for _, s := range fams["spillway_calls_total"].GetMetric() {
		got[labels(s)] = s.GetCounter().GetValue()
	}
	perTool := float64(goroutines / 2 * calls)
	for name, want := range map[string]float64{
		`outcome="ok",tool="ls"`:      perTool * 4 / 5,
		`outcome="error",tool="ls"`:   perTool / 5,
		`outcome="ok",tool="read"`:    perTool * 4 / 5,
		`outcome="error",tool="read"`: perTool / 5,
	} {
		if got[name] != want {
			t.Errorf("spillway_calls_total{%s} %v, want %v", name, got[name], want)
		}
	}
	for _, h := range fams["spillway_call_duration_seconds"].GetMetric() {
		if h.GetHistogram().GetSampleCount() != uint64(perTool) {
			t.Errorf("spillway_call_duration_seconds_count{%s} %d, want %v", labels(h), h.GetHistogram().GetSampleCount(), perTool)
		}
	}
	for _, s := range fams["spillway_output_bytes_total"].GetMetric() {
		want := map[string]float64{`kind="shown"`: 3, `kind="spilled"`: 7}[labels(s)] * goroutines * calls
		if s.GetCounter().GetValue() != want {
			t.Errorf("spillway_output_bytes_total{%s} %v, want %v", labels(s), s.GetCounter().GetValue(), want)
		}
	}
	if got, want := fams["spillway_sessions_created_total"].GetMetric()[0].GetCounter().GetValue(), float64(goroutines*calls/100); got != want {
		t.Errorf("spillway_sessions_created_total %v, want %v", got, want)
	}
}

// A label value with a quote, a backslash and a line feed, and help with
// a backslash and a line feed, read back as they were.
func TestMetricsEscaping(t *testing.T) {
	m := testMetrics()
	tool := "a\"b\\c\nd"
	m.Call(Call{Tool: tool, Duration: time.Millisecond})
	fams := parse(t, scrape(t, m))
	var tools []string
	for _, s := range fams["spillway_calls_total"].GetMetric() {
		for _, l := range s.GetLabel() {
			if l.GetName() == "tool" {
				tools = append(tools, l.GetValue())
			}
		}
	}
	if !slices.Equal(tools, []string{tool}) {
		t.Errorf("tool labels %q, want %q", tools, tool)
	}

	help := `C:\path` + "\nsecond line \"quoted\""
	var b bytes.Buffer
	writeText(&b, []family{gauge("escaped", help, 1)})
	if got := parse(t, b.String())["escaped"].GetHelp(); got != help {
		t.Errorf("help read back %q, want %q\n%s", got, help, b.String())
	}
}

// Prometheus' own checker finds nothing to say of the metrics.
func TestMetricsPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("no promtool (Debian: apt-get install prometheus)")
	}
	m := testMetrics()
	m.SessionCreated()
	m.Call(Call{Tool: "a\"b\\c\nd", Duration: time.Second, BytesShown: 5, IsError: true})
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = strings.NewReader(scrape(t, m))
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}
