package ops

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// The metrics follow Prometheus' naming conventions, as its linter checks
// them (units in the name, _total on counters, help on every one).
func TestMetricsLint(t *testing.T) {
	m := NewMetrics("v1.2.3", "node-1", func() State {
		return State{Sessions: 3, JobsRunning: 2, JobsWaiting: 1, SpillBytes: 4096, SandboxLayers: map[string]int{"landlock": 3}}
	})
	m.Call(Call{Tool: "ls", Duration: time.Millisecond, BytesShown: 10})
	problems, err := testutil.GatherAndLint(m.reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		if strings.HasPrefix(p.Metric, "spillway_") {
			t.Errorf("%s: %s", p.Metric, p.Text)
		}
	}
	want := `
# HELP spillway_jobs Background jobs alive, by state (running, waiting_for_input).
# TYPE spillway_jobs gauge
spillway_jobs{state="running"} 2
spillway_jobs{state="waiting_for_input"} 1
# HELP spillway_sandbox_layer_sessions Sessions whose commands run under each sandbox layer.
# TYPE spillway_sandbox_layer_sessions gauge
spillway_sandbox_layer_sessions{layer="landlock"} 3
# HELP spillway_sessions MCP sessions open.
# TYPE spillway_sessions gauge
spillway_sessions 3
`
	if err := testutil.GatherAndCompare(m.reg, strings.NewReader(want), "spillway_jobs", "spillway_sessions", "spillway_sandbox_layer_sessions"); err != nil {
		t.Error(err)
	}
}
