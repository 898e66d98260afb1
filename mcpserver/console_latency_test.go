//go:build linux

package mcpserver_test

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"
)

var consoleLatency = flag.Bool("console-latency", false, "measure how long a job's line takes to show on the console's page (docs/performance.md)")

// How long a line a background job prints takes to show on the page in
// a real browser: a job prints consoleLatencyLines lines, each stamped
// with the time it was printed (bash's EPOCHREALTIME), one every 20 ms;
// the page notes when each first shows (a MutationObserver, by the same
// clock). A measurement, not a check: run it with
//
//	go test ./mcpserver -count=1 -run TestConsoleLineLatency -v -args -console-latency
func TestConsoleLineLatency(t *testing.T) {
	if !*consoleLatency {
		t.Skip("a measurement: go test ./mcpserver -count=1 -run TestConsoleLineLatency -v -args -console-latency")
	}
	const lines = consoleLatencyLines
	d := startBrowserDriver(t)
	s := startConsoleServer(t, nil, "")
	_, link := newConsole(t, s.dir)
	tab := "latency-" + marker("tab")
	d.do(t, map[string]any{"op": "goto", "tab": tab, "url": link})
	d.do(t, map[string]any{"op": "watchLines", "tab": tab})
	script := fmt.Sprintf(`for i in $(seq 1 %d); do echo "L$i@${EPOCHREALTIME/./}"; sleep 0.02; done; echo done-$((6*7))`, lines)
	res := call(t, s.cs, "bash", map[string]any{"command": script, "run_in_background": true})
	pid := details(t, res)["pid"]
	var seen map[string][2]float64
	deadline := time.Now().Add(lines*20*time.Millisecond + time.Minute)
	for time.Now().Before(deadline) {
		seen = d.do(t, map[string]any{"op": "seenLines", "tab": tab}).Seen
		if len(seen) >= lines {
			break
		}
		time.Sleep(500 * time.Millisecond) // a measurement's poll, not a test's wait
	}
	call(t, s.cs, "bash", map[string]any{"kill_pid": pid})
	var ms []float64
	for _, v := range seen {
		ms = append(ms, v[1]-v[0])
	}
	if len(ms) == 0 {
		t.Fatal("no line showed on the page")
	}
	slices.Sort(ms)
	q := func(p float64) float64 { return ms[int(math.Ceil(p*float64(len(ms))))-1] }
	t.Logf("%d of %d lines shown; from printed to shown: p50 %.0f ms, p99 %.0f ms, max %.0f ms, min %.0f ms",
		len(ms), lines, q(0.50), q(0.99), ms[len(ms)-1], ms[0])
}

// consoleLatencyLines is how many lines the measurement prints.
const consoleLatencyLines = 1000
