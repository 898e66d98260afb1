//go:build unix

// Command fleet runs many `spillway serve` nodes on loopback and measures
// what docs/operations.md claims of them:
//
//   - fleet: three nodes behind haproxy; sessions held open on each, tool
//     calls at a fixed rate spread across them, each answered by the node
//     that owns its session (p50/p99); then one node is killed with
//     SIGKILL (its sessions get 404 at once, the others lose nothing) and
//     one is drained (its calls in flight finish, new sessions go
//     elsewhere, it exits 0).
//   - prometheus: three nodes scraped by a real Prometheus, asked for
//     sum(spillway_sessions).
//   - jobs: one node with thousands of sessions, each with a running
//     job: its memory and the read latency.
//
// Run it through bench/fleet.sh, which builds the binary.
package main

import (
	"crypto/rand"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

var (
	bin      = flag.String("bin", "", "the spillway binary (required)")
	scenario = flag.String("scenario", "fleet", "fleet, prometheus, jobs or idle")
	mode     = flag.String("mode", "prefix", "fleet: how haproxy routes sessions: prefix (the node id in the session id) or stick (a stick table learned from Mcp-Session-Id)")
	sessions = flag.Int("sessions", 1000, "fleet: sessions per node; jobs: sessions of the node, each with a running job; idle: sessions of each node, plain and sandboxed")
	rate     = flag.Int("rate", 300, "read/ls calls a second")
	duration = flag.Duration("duration", time.Minute, "how long the calls go on")
	keep     = flag.Bool("keep", false, "keep the temp directory")
	end      = flag.String("end", "sigterm", "jobs: how the sessions end: sigterm (the node drains) or delete (each session's client sends DELETE, 64 at a time)")
)

// token is the nodes' bearer token.
var token = rand.Text()

// marker is in every command the bench runs, to find what is left.
var marker = "fleet-bench-" + rand.Text()[:10]

func main() {
	flag.Parse()
	if *bin == "" {
		fatalf("-bin is required (bench/fleet.sh builds it)")
	}
	base, err := os.MkdirTemp("", "spillway-fleet-")
	if err != nil {
		fatalf("%v", err)
	}
	if !*keep {
		defer os.RemoveAll(base)
	}
	ok := false
	switch *scenario {
	case "fleet":
		ok = runFleet(base)
	case "prometheus":
		ok = runPrometheus(base)
	case "jobs":
		ok = runJobs(base)
	case "idle":
		ok = runIdle(base)
	default:
		fatalf("-scenario %q: want fleet, prometheus, jobs or idle", *scenario)
	}
	if !ok {
		fmt.Println("FAIL")
		os.RemoveAll(base)
		os.Exit(1)
	}
	fmt.Println("PASS")
}

// makeWorkspace writes the files the calls read and list.
func makeWorkspace(base string) string {
	ws := filepath.Join(base, "ws")
	os.MkdirAll(ws, 0o755)
	for i := range 20 {
		var b []byte
		for l := range 40 {
			b = fmt.Appendf(b, "line %d of file %d: some text a model reads\n", l, i)
		}
		os.WriteFile(filepath.Join(ws, fmt.Sprintf("file-%02d.txt", i)), b, 0o644)
	}
	return ws
}

// check prints a result line and returns ok.
func check(ok bool, format string, args ...any) bool {
	mark := "ok  "
	if !ok {
		mark = "FAIL"
	}
	fmt.Printf("%s %s\n", mark, fmt.Sprintf(format, args...))
	return ok
}

// percentile returns the p-th percentile of ds (sorted in place).
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	i := int(float64(len(ds)-1) * p / 100)
	return ds[i]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
