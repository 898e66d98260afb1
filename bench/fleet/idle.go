//go:build unix

package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// idleWait is how long the idle scenario lets sessions rest: past the 30 s
// after which a session sandbox with nothing running ends.
const idleWait = 35 * time.Second

// runIdle opens -sessions sessions on a plain node and on a --sandbox
// node, runs `true` once in each, lets them rest, and counts what an idle
// session costs: processes and proportional memory (PSS) beyond the
// node's own. Then a second `true` in each sandboxed session measures
// the price of a sandbox started again.
func runIdle(base string) bool {
	ok := true
	for _, mode := range []string{"plain", "sandbox"} {
		ws := makeWorkspace(base)
		var extra []string
		if mode == "sandbox" {
			extra = append(extra, "--sandbox")
		}
		n := startNode("idle-"+mode, ws, base, append(extra, "--max-sessions", strconv.Itoa(*sessions+10))...)
		c := newClient(n.url(), token)
		pss0, procs0 := n.tree()
		ids, err := openSessions(c, *sessions)
		ok = check(err == nil && len(ids) == *sessions, "%s: %d sessions opened (%v)", mode, len(ids), err) && ok
		first := callEach(c, ids)
		time.Sleep(idleWait)
		pss, procs := n.tree()
		perProcs := float64(procs-procs0) / float64(len(ids))
		perPSS := float64(pss-pss0) / 1024 / float64(len(ids))
		fmt.Printf("     %s: first bash true of a new session p50 %s p99 %s\n", mode, ms(percentile(first, 50)), ms(percentile(first, 99)))
		ok = check(perProcs <= 0.05, "%s: after %s idle: %.3f processes a session (%d in all)", mode, idleWait, perProcs, procs-procs0) && ok
		ok = check(perPSS <= 1, "%s: after %s idle: %.2f MB PSS a session (%.1f MB in all, node alone %.1f MB); load average %s",
			mode, idleWait, perPSS, float64(pss-pss0)/1024, float64(pss0)/1024, loadavg()) && ok
		name := fmt.Sprintf("idle %d, %s", len(ids), mode)
		record(name, "first bash true of a new session, p50 / p99", ms(percentile(first, 50))+" / "+ms(percentile(first, 99)), "", true)
		record(name, fmt.Sprintf("processes a session after %s idle", idleWait), fmt.Sprintf("%.3f", perProcs), "<= 0.05", perProcs <= 0.05)
		record(name, fmt.Sprintf("PSS a session after %s idle", idleWait), fmt.Sprintf("%.2f MB", perPSS), "<= 1 MB", perPSS <= 1)
		if mode == "sandbox" {
			again := callEach(c, ids)
			fmt.Printf("     %s: bash true after the rest (the sandbox started again) p50 %s p99 %s\n", mode, ms(percentile(again, 50)), ms(percentile(again, 99)))
			record(name, "bash true once its sandbox ended idle, p50", ms(percentile(again, 50)), "", true)
			warm := callEach(c, ids)
			fmt.Printf("     %s: bash true at once after that (warm) p50 %s p99 %s\n", mode, ms(percentile(warm, 50)), ms(percentile(warm, 99)))
		}
		n.cmd.Process.Signal(os.Interrupt)
		if _, exited := n.wait(time.Minute); !exited {
			n.cmd.Process.Kill()
			n.wait(time.Minute)
		}
	}
	return ok
}

// callEach runs `true` once in each session, 16 at a time, and returns
// each call's latency.
func callEach(c *client, ids []string) []time.Duration {
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16)
	for _, id := range ids {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			t0 := time.Now()
			_, err := c.callTool(id, "bash", map[string]any{"command": "true"})
			if err == nil {
				mu.Lock()
				lat = append(lat, time.Since(t0))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return lat
}

// tree sums the proportional set size (kB) of the node and every process
// descending from it, and counts those descendants.
func (n *node) tree() (pssKB int64, descendants int) {
	root := n.cmd.Process.Pid
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	for pid := range parent {
		p := pid
		for p > 1 && p != root {
			p = parent[p]
		}
		if p != root {
			continue
		}
		if pid != root {
			descendants++
		}
		pssKB += pss(pid)
	}
	return pssKB, descendants
}

// pss reads a process's proportional set size in kB.
func pss(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Pss:"); ok {
			kb, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return kb
		}
	}
	return 0
}
