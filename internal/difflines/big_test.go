package difflines

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// genReader yields n lines of about 100 bytes; every 1,000,000th line
// differs when alt is set.
type genReader struct {
	i, n int
	alt  bool
	buf  []byte
}

func (g *genReader) Read(p []byte) (int, error) {
	for len(g.buf) < len(p) && g.i < g.n {
		g.i++
		g.buf = fmt.Appendf(g.buf, "2026-01-02T03:04:05Z INFO  server: request %09d handled path=/api/v1/items status=200 dur=3ms\n", g.i)
		if g.alt && g.i%1_000_000 == 0 {
			g.buf = append(g.buf, "changed line\n"...)
		}
	}
	if len(g.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, g.buf)
	g.buf = g.buf[:copy(g.buf, g.buf[n:])]
	return n, nil
}

// The diff of two 1.4 GB outputs that differ in 14 places: its memory
// stays bounded. SPILLWAY_BIG_DIFF=1 runs it (about a minute on 2 cores).
func TestUnifiedBigBoundedMemory(t *testing.T) {
	if os.Getenv("SPILLWAY_BIG_DIFF") == "" {
		t.Skip("set SPILLWAY_BIG_DIFF=1 to diff two 1.4 GB streams")
	}
	const lines = 14_500_000 // ~1.4 GB of 97-byte lines
	var out strings.Builder
	var peak uint64
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			default:
			}
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			runtime.Gosched()
		}
	}()
	st, err := Unified(&out, &genReader{n: lines}, &genReader{n: lines, alt: true}, "a", "b")
	close(done)
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 14 || st.Removed != 0 {
		t.Errorf("stats %+v, want 14 added", st)
	}
	t.Logf("diffed %d lines (%.2f GB) against %d: %d hunks, peak heap in use %.1f MB, VmHWM %s",
		st.LinesA, float64(st.LinesA*97)/1e9, st.LinesB, strings.Count(out.String(), "\n@@"), float64(peak)/1e6, vmHWM())
}

func vmHWM() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "?"
}

// Many lines replaced by one: the windows move on by half a window, not
// by a line. Before, 8,000 lines replaced by one took 35 s, 16,000 took
// 142 s, while 16,000 replaced by 16,000 others took 0.9 s; the ratio of
// the two in one run is the check.
func TestManyLinesReplacedByOne(t *testing.T) {
	const n = 6000
	a := strings.Repeat("old line\n", n)
	other := strings.Repeat("x\n", n)
	var one, many time.Duration
	for range 3 {
		t0 := time.Now()
		st, err := Unified(io.Discard, strings.NewReader(a), strings.NewReader("w\n"), "a", "b")
		one += time.Since(t0)
		if err != nil || st.Removed != n || st.Added != 1 {
			t.Fatalf("%+v %v", st, err)
		}
		t0 = time.Now()
		if _, err := Unified(io.Discard, strings.NewReader(a), strings.NewReader(other), "a", "b"); err != nil {
			t.Fatal(err)
		}
		many += time.Since(t0)
	}
	if one > 5*many {
		t.Errorf("%d lines replaced by one took %v, %.0f times %d replaced by %d others (%v)", n, one/3, float64(one)/float64(many), n, n, many/3)
	}
}
