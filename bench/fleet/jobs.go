//go:build unix

package main

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// runJobs opens -sessions sessions on one node, starts a job that runs on
// in each, and measures the node's memory and the latency of reads.
func runJobs(base string) bool {
	ws := makeWorkspace(base)
	n := startNode("n1", ws, base, "--max-sessions", strconv.Itoa(*sessions+10), "--drain-timeout", "5s")
	c := newClient(n.url(), token)
	rss0 := n.rssKB()
	t0 := time.Now()
	ids, err := openSessions(c, *sessions)
	ok := check(err == nil && len(ids) == *sessions, "%d sessions opened in %s (%v); RSS %.1f MB → %.1f MB", len(ids), time.Since(t0).Round(time.Millisecond), err, float64(rss0)/1024, float64(n.rssKB())/1024)
	rssSessions := n.rssKB()
	fdsSessions := n.metric("process_open_fds")

	t0 = time.Now()
	var mu sync.Mutex
	var failed []string
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for _, id := range ids {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if _, err := c.callTool(id, "bash", map[string]any{"command": "exec -a sleep-" + marker + " sleep 3600", "run_in_background": true}); err != nil {
				mu.Lock()
				failed = append(failed, err.Error())
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	running := n.metric(`spillway_jobs`)
	ok = check(len(failed) == 0 && int(running) == len(ids) && len(leftProcesses(marker)) >= len(ids),
		"a job started in each session in %s: spillway_jobs %v, processes %d, failures %d %.200v",
		time.Since(t0).Round(time.Millisecond), running, len(leftProcesses(marker)), len(failed), failed) && ok
	rssJobs := n.rssKB()
	fmt.Printf("     descriptors: %.2f a session with a running job (%v open with the sessions, %v with their jobs)\n",
		(n.metric("process_open_fds")-fdsSessions)/float64(len(ids)), fdsSessions, n.metric("process_open_fds"))

	reads := newTally()
	cpu := n.metric("process_cpu_seconds_total")
	steady(c, ids, *rate, *duration, reads)
	fmt.Printf("     %.2f ms of CPU a call\n", 1000*(n.metric("process_cpu_seconds_total")-cpu)/float64(reads.attempted))
	ok = check(reads.answered == reads.attempted, "%d read/ls calls at %d/s across the %d sessions: p50 %s, p99 %s %v",
		reads.attempted, *rate, len(ids), ms(percentile(reads.lat, 50)), ms(percentile(reads.lat, 99)), reads.errors) && ok
	fmt.Printf("     RSS: %.1f MB idle, %.1f MB with the sessions, %.1f MB with their jobs, %.1f MB after the reads; load average %s\n",
		float64(rss0)/1024, float64(rssSessions)/1024, float64(rssJobs)/1024, float64(n.rssKB())/1024, loadavg())
	fmt.Printf("     spillway_sessions %v, go_goroutines %v, process_open_fds %v\n", n.metric("spillway_sessions"), n.metric("go_goroutines"), n.metric("process_open_fds"))

	if *end == "delete" {
		t0 = time.Now()
		var deleted, bad atomic.Int32
		for _, id := range ids {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				if status, err := c.end(id); err == nil && status < 300 {
					deleted.Add(1)
				} else {
					bad.Add(1)
				}
			})
		}
		wg.Wait()
		took := time.Since(t0)
		ok = check(int(deleted.Load()) == len(ids), "%d DELETEs answered in %s (%d failed); spillway_sessions %v, spillway_jobs %v",
			deleted.Load(), took.Round(time.Millisecond), bad.Load(), n.metric("spillway_sessions"), n.metric("spillway_jobs")) && ok
		ok = check(len(leftProcesses(marker)) == 0, "no job left running after the DELETEs (%d)", len(leftProcesses(marker))) && ok
	}
	resp, err := http.Get("http://" + n.addr + "/readyz")
	if err == nil {
		resp.Body.Close()
	}
	n.cmd.Process.Signal(syscall.SIGTERM)
	t0 = time.Now()
	err, exited := n.wait(2 * time.Minute)
	ok = check(exited && err == nil, "SIGTERM (--drain-timeout 5s): exited %v in %s, its %d jobs ended", err, time.Since(t0).Round(time.Millisecond), len(ids)) && ok
	if !exited {
		n.cmd.Process.Kill()
		n.wait(time.Minute)
	}
	time.Sleep(time.Second)
	ok = check(len(leftProcesses(marker)) == 0, "no job left running (%d)", len(leftProcesses(marker))) && ok
	ok = check(len(n.spillDirs()) == 0, "no spill directory left %v", n.spillDirs()) && ok
	return ok
}
