package mcpserver_test

import (
	"bufio"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// scrape reads the metrics at url into a map from each sample's name and
// labels, as written ("spillway_calls_total{outcome=\"ok\",tool=\"ls\"}"),
// to its value.
func scrape(t *testing.T, url, auth string) map[string]float64 {
	t.Helper()
	code, body, _ := request(t, http.MethodGet, url, auth)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", url, code, body)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// metricsURL waits for serve to say where its metrics are.
func metricsURL(t *testing.T, s *httpServer) string {
	t.Helper()
	var url string
	waitFor(t, "the metrics address", func() bool {
		_, rest, ok := strings.Cut(s.stderr.String(), "metrics at ")
		url, _, _ = strings.Cut(rest, "\n")
		return ok && strings.HasSuffix(url, "/metrics")
	})
	return url
}

// The metrics move with the calls made: sessions, calls by tool and
// outcome, their durations, the bytes shown and spilled, the jobs and the
// spill bytes in use; on --metrics-listen they need no token, and
// /metrics beside /mcp is then not served.
func TestMetricsMove(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=m3trics"}, "--metrics-listen", "127.0.0.1:0")
	url := metricsURL(t, s)
	if code, _, _ := request(t, http.MethodGet, s.base()+"/metrics", "Bearer m3trics"); code != http.StatusNotFound {
		t.Errorf("/metrics beside /mcp with --metrics-listen: %d, want 404", code)
	}
	before := scrape(t, url, "")
	for _, name := range []string{"spillway_sessions", "spillway_calls_in_flight", "spillway_spill_bytes", `spillway_jobs{state="running"}`,
		`spillway_jobs{state="waiting_for_input"}`, "spillway_draining", "spillway_sessions_created_total", "spillway_sessions_expired_total",
		`spillway_output_bytes_total{kind="shown"}`, `spillway_output_bytes_total{kind="spilled"}`, "process_cpu_seconds_total"} {
		if _, ok := before[name]; !ok {
			t.Errorf("no %s in the metrics", name)
		}
	}
	if before["spillway_sessions"] != 0 {
		t.Errorf("spillway_sessions %v before any session", before["spillway_sessions"])
	}

	cs := connectHTTP(t, s.url, nil, http.Header{"Authorization": {"Bearer m3trics"}}, false)
	call(t, cs, "ls", map[string]any{})
	call(t, cs, "ls", map[string]any{})
	call(t, cs, "read", map[string]any{"path": "/nonexistent/file"})
	call(t, cs, "bash", map[string]any{"command": "seq 1 200000"}) // spills
	call(t, cs, "bash", map[string]any{"command": "sleep 1000", "run_in_background": true})

	after := scrape(t, url, "")
	for name, want := range map[string]float64{
		"spillway_sessions":                                            1,
		"spillway_sessions_created_total":                              1,
		`spillway_calls_total{outcome="ok",tool="ls"}`:                 2,
		`spillway_calls_total{outcome="error",tool="read"}`:            1,
		`spillway_calls_total{outcome="ok",tool="bash"}`:               2,
		`spillway_call_duration_seconds_count{tool="ls"}`:              2,
		`spillway_call_duration_seconds_bucket{tool="bash",le="+Inf"}`: 2,
		`spillway_jobs{state="running"}`:                               1,
	} {
		if got := after[name] - before[name]; got != want {
			t.Errorf("%s moved by %v, want %v", name, got, want)
		}
	}
	shown := after[`spillway_output_bytes_total{kind="shown"}`] - before[`spillway_output_bytes_total{kind="shown"}`]
	spilled := after[`spillway_output_bytes_total{kind="spilled"}`] - before[`spillway_output_bytes_total{kind="spilled"}`]
	// seq 1 200000 writes 1,288,895 bytes; the result shows 50 KiB of it.
	if shown <= 0 || spilled < 1288895 || shown >= spilled {
		t.Errorf("bytes shown %v, spilled %v: want some shown and the whole stream spilled", shown, spilled)
	}
	if after["spillway_spill_bytes"] < 1288895 {
		t.Errorf("spillway_spill_bytes %v, want the spill file's size at least", after["spillway_spill_bytes"])
	}

	cs.Close()
	waitFor(t, "the session to end in the metrics", func() bool {
		m := scrape(t, url, "")
		return m["spillway_sessions"] == 0 && m[`spillway_jobs{state="running"}`] == 0 && m["spillway_spill_bytes"] == 0
	})
}
