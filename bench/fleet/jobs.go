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

	"github.com/spillway-dev/spillway/mcpserver"
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
	perFDs := (n.metric("process_open_fds") - fdsSessions) / float64(len(ids))
	fmt.Printf("     descriptors: %.2f a session with a running job (%v open with the sessions, %v with their jobs)\n",
		perFDs, fdsSessions, n.metric("process_open_fds"))
	name := fmt.Sprintf("jobs %d, %s", len(ids), *end)
	record(name, "jobs started", fmt.Sprintf("%d of %d in %s", int(running), len(ids), time.Since(t0).Round(time.Second)), fmt.Sprint(len(ids)), int(running) == len(ids))
	record(name, "descriptors a session with a job", fmt.Sprintf("%.2f (+1 connection)", perFDs), fmt.Sprintf("<= %d (+1)", mcpserver.SessionDescriptors), perFDs < mcpserver.SessionDescriptors+0.5)

	reads := newTally()
	cpu := n.metric("process_cpu_seconds_total")
	steady(c, ids, *rate, *duration, reads)
	fmt.Printf("     %.2f ms of CPU a call\n", 1000*(n.metric("process_cpu_seconds_total")-cpu)/float64(reads.attempted))
	p50, p99 := percentile(reads.lat, 50), percentile(reads.lat, 99)
	ok = check(reads.answered == reads.attempted, "%d read/ls calls at %d/s across the %d sessions: p50 %s, p99 %s %v",
		reads.attempted, *rate, len(ids), ms(p50), ms(p99), reads.errors) && ok
	record(name, fmt.Sprintf("read/ls at %d/s, p50 / p99", *rate), fmt.Sprintf("%s / %s (%d of %d answered)", ms(p50), ms(p99), reads.answered, reads.attempted),
		"p99 <= 50 ms", p99 <= 50*time.Millisecond && reads.answered == reads.attempted)
	fmt.Printf("     RSS: %.1f MB idle, %.1f MB with the sessions, %.1f MB with their jobs, %.1f MB after the reads; load average %s\n",
		float64(rss0)/1024, float64(rssSessions)/1024, float64(rssJobs)/1024, float64(n.rssKB())/1024, loadavg())
	record(name, "RSS with the jobs, after the reads", fmt.Sprintf("%.0f MB, %.0f MB", float64(rssJobs)/1024, float64(n.rssKB())/1024), "", true)
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
		left := len(leftProcesses(marker))
		ok = check(left == 0, "no job left running after the DELETEs (%d)", left) && ok
		record(name, fmt.Sprintf("%d DELETEs, 64 at a time", len(ids)), fmt.Sprintf("%s, %d failed, %d processes left", took.Round(100*time.Millisecond), bad.Load(), left),
			"< 30 s, none left", took < 30*time.Second && bad.Load() == 0 && left == 0)
	}
	resp, err := http.Get("http://" + n.addr + "/readyz")
	if err == nil {
		resp.Body.Close()
	}
	n.cmd.Process.Signal(syscall.SIGTERM)
	t0 = time.Now()
	err, exited := n.wait(2 * time.Minute)
	took := time.Since(t0)
	ok = check(exited && err == nil, "SIGTERM (--drain-timeout 5s): exited %v in %s, its %d jobs ended", err, took.Round(time.Millisecond), len(ids)) && ok
	if !exited {
		n.cmd.Process.Kill()
		n.wait(time.Minute)
	}
	time.Sleep(time.Second)
	left := len(leftProcesses(marker))
	ok = check(left == 0, "no job left running (%d)", left) && ok
	ok = check(len(n.spillDirs()) == 0, "no spill directory left %v", n.spillDirs()) && ok
	cgroups := n.cgroupsLeft()
	ok = check(len(cgroups) == 0, "no cgroup left %v", cgroups) && ok
	record(name, "SIGTERM to exit (--drain-timeout 5s)", fmt.Sprintf("%s, %d processes, %d spill dirs, %d cgroups left", took.Round(100*time.Millisecond), left, len(n.spillDirs()), len(cgroups)),
		"< 30 s, none left", exited && err == nil && took < 30*time.Second && left == 0 && len(n.spillDirs()) == 0 && len(cgroups) == 0)
	return ok
}
