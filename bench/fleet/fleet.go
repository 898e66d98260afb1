//go:build unix

package main

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// metric sums the samples of the metric named name (any labels) a node
// reports.
func (n *node) metric(name string) float64 {
	resp, err := http.Get("http://" + n.metrics + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	sum := 0.0
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, name+" ") && !strings.HasPrefix(line, name+"{") {
			continue
		}
		v, _ := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		sum += v
	}
	return sum
}

func runFleet(base string) bool {
	ws := makeWorkspace(base)
	var nodes []*node
	for i := range 3 {
		nodes = append(nodes, startNode(fmt.Sprintf("n%d", i+1), ws, base,
			"--max-sessions", strconv.Itoa(*sessions+500), "--drain-timeout", "30s"))
	}
	p := startProxy(base, nodes, *mode)
	defer p.stop()
	c := newClient("http://"+p.addr+"/mcp", token)
	ok := true
	fmt.Printf("fleet: 3 nodes behind haproxy (%s routing) on %s; load average %s\n", *mode, p.addr, loadavg())

	// Sessions, opened through the proxy: round robin spreads them.
	t0 := time.Now()
	ids, err := openSessions(c, 3**sessions)
	ok = check(err == nil && len(ids) == 3**sessions, "opened %d sessions through the proxy in %s (%v)", len(ids), time.Since(t0).Round(time.Millisecond), err) && ok
	byNode := map[string][]string{}
	for _, id := range ids {
		byNode[owner(id)] = append(byNode[owner(id)], id)
	}
	for _, n := range nodes {
		fmt.Printf("     %s holds %d sessions (spillway_sessions %v), RSS %.1f MB\n", n.id, len(byNode[n.id]), n.metric("spillway_sessions"), float64(n.rssKB())/1024)
	}

	// Steady calls, spread across every session.
	before, cpu := map[string]float64{}, map[string]float64{}
	for _, n := range nodes {
		before[n.id] = n.metric("spillway_calls_total")
		cpu[n.id] = n.metric("process_cpu_seconds_total")
	}
	proxyCPU := cpuSeconds(p.cmd.Process.Pid)
	load := newTally()
	t0 = time.Now()
	steady(c, ids, *rate, *duration, load)
	took := time.Since(t0)
	ok = check(load.answered == load.attempted, "%d read/ls calls in %s (%.0f/s): %d answered 200 without error; p50 %s, p99 %s; statuses %v %v",
		load.attempted, took.Round(time.Millisecond), float64(load.attempted)/took.Seconds(), load.answered,
		ms(percentile(load.lat, 50)), ms(percentile(load.lat, 99)), load.byStatus, load.errors) && ok
	for _, n := range nodes {
		got := n.metric("spillway_calls_total") - before[n.id]
		used := n.metric("process_cpu_seconds_total") - cpu[n.id]
		ok = check(int(got) == load.perOwner[n.id], "%s answered %v calls; %d were sent to its sessions (a session is known to its node only); %.2f ms of CPU a call, RSS %.1f MB",
			n.id, got, load.perOwner[n.id], 1000*used/got, float64(n.rssKB())/1024) && ok
	}
	fmt.Printf("     haproxy: %.2f ms of CPU a call; load average %s\n", 1000*(cpuSeconds(p.cmd.Process.Pid)-proxyCPU)/float64(load.attempted), loadavg())

	ok = killNode(c, nodes[1], byNode, nodes) && ok
	ok = drainNode(c, nodes[2], byNode[nodes[2].id]) && ok

	// The last node: SIGTERM, nothing left.
	nodes[0].cmd.Process.Signal(syscall.SIGTERM)
	err, exited := nodes[0].wait(time.Minute)
	ok = check(exited && err == nil, "%s exited %v on SIGTERM", nodes[0].id, err) && ok
	time.Sleep(500 * time.Millisecond)
	left := leftProcesses(marker)
	ok = check(len(left) == 0, "no command of the bench left running (%d)", len(left)) && ok
	for _, n := range []*node{nodes[0], nodes[2]} {
		ok = check(len(n.spillDirs()) == 0, "%s left no spill directory %v", n.id, n.spillDirs()) && ok
	}
	return ok
}

// killNode SIGKILLs n, then calls every session of n (each must get 404
// at once) while the other nodes' sessions go on without a loss.
func killNode(c *client, n *node, byNode map[string][]string, nodes []*node) bool {
	var others []string
	for _, m := range nodes {
		if m != n {
			others = append(others, byNode[m.id]...)
		}
	}
	n.cmd.Process.Signal(syscall.SIGKILL)
	n.wait(10 * time.Second)
	killed := time.Now()
	dead := newTally()
	var wg sync.WaitGroup
	live := newTally()
	wg.Go(func() { steady(c, others, *rate, 5*time.Second, live) })
	var deadWG sync.WaitGroup
	sem := make(chan struct{}, 64)
	for _, id := range byNode[n.id] {
		sem <- struct{}{}
		deadWG.Go(func() {
			defer func() { <-sem }()
			t0 := time.Now()
			status, err := c.callTool(id, "ls", map[string]any{})
			dead.add(owner(id), status, time.Since(t0), err)
		})
	}
	deadWG.Wait()
	allDead := time.Since(killed)
	wg.Wait()
	ok := check(dead.byStatus[http.StatusNotFound] == len(byNode[n.id]),
		"%s killed (SIGKILL): its %d sessions got %v (want all 404), the last %s after the kill; p50 %s, p99 %s",
		n.id, len(byNode[n.id]), dead.byStatus, allDead.Round(time.Millisecond), ms(percentile(dead.lat, 50)), ms(percentile(dead.lat, 99)))
	ok = check(live.answered == live.attempted, "meanwhile the other nodes answered %d of %d calls (p99 %s) %v",
		live.answered, live.attempted, ms(percentile(live.lat, 99)), live.errors) && ok
	return ok
}

// drainNode SIGTERMs n while calls run on some of its sessions: they
// finish, its other sessions are still served during the drain, new
// sessions go to another node, and n exits 0 once its work is done.
func drainNode(c *client, n *node, mine []string) bool {
	const inFlight = 20
	var wg sync.WaitGroup
	results := make(chan error, inFlight)
	gate := n.tmp + "/go"
	for _, id := range mine[:inFlight] {
		wg.Go(func() {
			_, err := c.callTool(id, "bash", map[string]any{"command": "while [ ! -e " + gate + " ]; do sleep 0.1; done; echo done # " + marker})
			results <- err
		})
	}
	// Wait for the calls to be in flight.
	deadline := time.Now().Add(30 * time.Second)
	for n.metric("spillway_calls_in_flight") < inFlight && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	n.cmd.Process.Signal(syscall.SIGTERM)
	drained := time.Now()
	// The signal is handled in its own time: new sessions are asked for
	// once the node says it drains (an initialize that came first is a
	// session it serves like the others).
	waitHTTP("http://"+n.addr+"/readyz", http.StatusServiceUnavailable)

	// New sessions, through the proxy, at once and after the checks saw
	// it unready.
	fresh, err := openSessions(c, 30)
	elsewhere := 0
	for _, id := range fresh {
		if owner(id) != n.id {
			elsewhere++
		}
	}
	ok := check(err == nil && elsewhere == len(fresh) && len(fresh) == 30, "%s draining (SIGTERM): %d of 30 new sessions opened, %d on other nodes (%v)", n.id, len(fresh), elsewhere, err)
	// Its sessions are still served while the calls run.
	served := 0
	for _, id := range mine[inFlight : inFlight+20] {
		if status, err := c.callTool(id, "ls", map[string]any{}); status == 200 && err == nil {
			served++
		}
	}
	ok = check(served == 20, "during the drain %s still answered %d of 20 calls on its other sessions", n.id, served) && ok
	os.WriteFile(gate, nil, 0o600)
	wg.Wait()
	close(results)
	finished := 0
	for err := range results {
		if err == nil {
			finished++
		}
	}
	ok = check(finished == inFlight, "the %d calls in flight on %s finished: %d ok", inFlight, n.id, finished) && ok
	err, exited := n.wait(45 * time.Second)
	ok = check(exited && err == nil, "%s exited %v, %s after SIGTERM", n.id, err, time.Since(drained).Round(time.Millisecond)) && ok
	status, _ := c.callTool(mine[0], "ls", map[string]any{})
	ok = check(status == http.StatusNotFound, "after it exited, a session of %s gets %d (want 404: the client starts over)", n.id, status) && ok
	return ok
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// cpuSeconds is the user and system CPU time of process pid.
func cpuSeconds(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command (which may hold spaces) in parentheses.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseFloat(f[11], 64)
	stime, _ := strconv.ParseFloat(f[12], 64)
	return (utime + stime) / 100 // USER_HZ
}
