//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// runPrometheus starts three nodes, opens 5, 7 and 9 sessions on them and
// makes calls, and has Debian's Prometheus scrape their --metrics-listen
// addresses until its API gives sum(spillway_sessions) = 21 and the calls
// made.
func runPrometheus(base string) bool {
	ws := makeWorkspace(base)
	var targets []string
	want, calls := 0, 0
	for i := range 3 {
		n := startNode(fmt.Sprintf("n%d", i+1), ws, base, "--drain-timeout", "0")
		defer func() { n.cmd.Process.Signal(syscall.SIGTERM); n.wait(30 * time.Second) }()
		targets = append(targets, strconv.Quote(n.metrics))
		c := newClient(n.url(), token)
		ids, err := openSessions(c, 5+2*i)
		if err != nil {
			fatalf("opening sessions on %s: %v", n.id, err)
		}
		for _, id := range ids {
			if _, err := c.callTool(id, "ls", map[string]any{}); err != nil {
				fatalf("ls: %v", err)
			}
			calls++
		}
		want += len(ids)
	}
	cfg := filepath.Join(base, "prometheus.yml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`global:
  scrape_interval: 1s
scrape_configs:
  - job_name: spillway
    static_configs:
      - targets: [%s]
`, strings.Join(targets, ", "))), 0o600)
	addr := freePort()
	prom := exec.Command("prometheus", "--config.file="+cfg, "--storage.tsdb.path="+filepath.Join(base, "prom"),
		"--web.listen-address="+addr, "--log.level=warn")
	prom.Stderr = prefixWriter("prometheus")
	if err := prom.Start(); err != nil {
		fatalf("prometheus: %v (apt-get install prometheus)", err)
	}
	defer func() { prom.Process.Signal(syscall.SIGTERM); prom.Wait() }()

	query := func(q string) (float64, bool) {
		resp, err := http.Get("http://" + addr + "/api/v1/query?query=" + url.QueryEscape(q))
		if err != nil {
			return 0, false
		}
		defer resp.Body.Close()
		var r struct {
			Data struct {
				Result []struct {
					Value []any `json:"value"`
				} `json:"result"`
			} `json:"data"`
		}
		if json.NewDecoder(resp.Body).Decode(&r) != nil || len(r.Data.Result) == 0 || len(r.Data.Result[0].Value) < 2 {
			return 0, false
		}
		s, _ := r.Data.Result[0].Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	}
	var sessions, total, up float64
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		sessions, _ = query("sum(spillway_sessions)")
		total, _ = query("sum(spillway_calls_total)")
		up, _ = query(`count(up{job="spillway"} == 1)`)
		if sessions == float64(want) && total == float64(calls) && up == 3 {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	ok := check(up == 3, "prometheus %s scrapes %v of 3 nodes", addr, up)
	ok = check(sessions == float64(want), "prometheus: sum(spillway_sessions) = %v, want %d", sessions, want) && ok
	ok = check(total == float64(calls), "prometheus: sum(spillway_calls_total) = %v, want %d", total, calls) && ok
	return ok
}
