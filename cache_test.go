package spillway_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

func cacheToolset(t *testing.T, ttl time.Duration, commands ...string) *spillway.Toolset {
	t.Helper()
	pol := spillway.DefaultPolicy()
	pol.Cache.Commands = commands
	pol.Cache.TTL = ttl
	return bashToolset(t, spillway.Options{Policy: &pol})
}

// The cache answers only listed commands, only within the TTL, only from
// a run that exited 0 in the same directory with the same environment.
func TestBashCache(t *testing.T) {
	ts := cacheToolset(t, time.Hour, "date  +%s%N", "seq *") // spaces collapse
	run := func(in spillway.BashInput) spillway.Result[spillway.BashDetails] {
		t.Helper()
		return bashRun(t, ts, in)
	}

	first := run(spillway.BashInput{Command: "date +%s%N"})
	second := run(spillway.BashInput{Command: "date +%s%N"})
	if first.Details.Cached || !second.Details.Cached || second.Content != first.Content {
		t.Errorf("listed command: first cached=%v, second cached=%v, %q vs %q", first.Details.Cached, second.Details.Cached, first.Content, second.Content)
	}
	if !strings.Contains(second.Text, "[cached: the result of call #1") || second.Details.CacheAgeMS < 0 {
		t.Errorf("cached text: %q", second.Text)
	}
	// Not listed: runs every time.
	a, b := run(spillway.BashInput{Command: "date +%N"}), run(spillway.BashInput{Command: "date +%N"})
	if a.Details.Cached || b.Details.Cached || a.Content == b.Content {
		t.Errorf("unlisted command cached: %q %q", a.Content, b.Content)
	}
	// Another directory or environment: runs.
	if r := run(spillway.BashInput{Command: "date +%s%N", Cwd: "/"}); r.Details.Cached {
		t.Errorf("another cwd was answered from the cache")
	}
	if r := run(spillway.BashInput{Command: "date +%s%N", Env: map[string]string{"X": "1"}}); r.Details.Cached {
		t.Errorf("another env was answered from the cache")
	}
	// Store full, truncate on retrieval: the cached result is cut with the
	// new call's limits, and names the first run's spill file.
	full := run(spillway.BashInput{Command: "seq 1 3000"})
	cut := run(spillway.BashInput{Command: "seq 1 3000", MaxLines: 10})
	if !cut.Details.Cached || cut.Details.Stdout.Truncation.OutputLines != 10 || cut.Details.Stdout.Truncation.TotalLines != 3000 ||
		cut.Details.Stdout.FullOutputPath != full.Details.Stdout.FullOutputPath || full.Details.Stdout.FullOutputPath == "" {
		t.Errorf("cached with other limits: %+v (first run spilled to %q)", cut.Details.Stdout, full.Details.Stdout.FullOutputPath)
	}
	small := run(spillway.BashInput{Command: "seq 1 30"})
	smallCut := run(spillway.BashInput{Command: "seq 1 30", MaxLines: 5})
	if !smallCut.Details.Cached || smallCut.Details.Stdout.Truncation.OutputLines != 5 || smallCut.Details.Stdout.FullOutputPath == "" || small.Details.Stdout.FullOutputPath != "" {
		t.Errorf("an inline result cut on retrieval: %+v", smallCut.Details.Stdout)
	}
	// A failed run is not reused.
	run(spillway.BashInput{Command: "seq 1 3 && false"})
	if r := run(spillway.BashInput{Command: "seq 1 3 && false"}); r.Details.Cached {
		t.Errorf("a failed run answered from the cache")
	}
	// The history says which calls were cached.
	var cached []int
	for _, rec := range historyRecords(t, ts, spillway.HistoryInput{}) {
		if rec.Cached {
			cached = append(cached, rec.CachedFrom)
		}
	}
	if len(cached) != 3 || cached[0] != 1 {
		t.Errorf("cached records (cached_from): %v", cached)
	}

	// Outside the TTL: runs again.
	short := cacheToolset(t, time.Millisecond, "date +%s%N")
	x := bashRun(t, short, spillway.BashInput{Command: "date +%s%N"})
	time.Sleep(20 * time.Millisecond)
	if y := bashRun(t, short, spillway.BashInput{Command: "date +%s%N"}); y.Details.Cached || y.Content == x.Content {
		t.Errorf("a result older than the TTL answered the call")
	}
	// Off by default.
	def := bashToolset(t, spillway.Options{})
	bashRun(t, def, spillway.BashInput{Command: "date +%s%N"})
	if r := bashRun(t, def, spillway.BashInput{Command: "date +%s%N"}); r.Details.Cached {
		t.Errorf("the default policy cached a command")
	}
}

// Identical cacheable calls made at the same time share one run.
func TestBashCacheSharesOneRun(t *testing.T) {
	ts := cacheToolset(t, time.Hour, "sleep 0.3; date +%s%N")
	var wg sync.WaitGroup
	out := make([]string, 4)
	for i := range out {
		wg.Go(func() { out[i] = bashRun(t, ts, spillway.BashInput{Command: "sleep 0.3; date +%s%N"}).Content })
	}
	wg.Wait()
	runs := 0
	for _, rec := range historyRecords(t, ts, spillway.HistoryInput{}) {
		if !rec.Cached {
			runs++
		}
	}
	if runs != 1 || out[0] == "" || out[0] != out[1] || out[1] != out[2] || out[2] != out[3] {
		t.Errorf("%d runs for 4 identical calls; outputs %q", runs, out)
	}
}
