//go:build linux

package mcpserver_test

// What the console costs a session while no page is open: no goroutine,
// and no time a `bash true` call would notice (docs/performance.md).

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/console"
	"github.com/spillway-dev/spillway/mcpserver"
)

// inProcess serves one stdio session in this process, its sessions shown
// on hub (none: nil), and returns its client and what ends it.
func inProcess(tb testing.TB, hub *console.Hub) (*mcp.ClientSession, func()) {
	tb.Helper()
	tmp := tb.TempDir()
	p := spillway.DefaultPolicy()
	p.Spill.Dir = tmp
	cfg := mcpserver.Config{
		NewToolset: func(mcpserver.Client) (*spillway.Toolset, error) {
			return spillway.New(spillway.Options{Cwd: tmp, Policy: &p})
		},
		Policy:  &p,
		Console: hub,
	}
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- mcpserver.ServeStdio(ctx, cfg, serverR, serverW)
		serverW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cost", Version: "1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: clientR, Writer: clientW}, nil)
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	return cs, func() {
		cs.Close()
		clientW.Close()
		cancel()
		select {
		case <-served:
		case <-time.After(hangGuard):
			tb.Error("the server did not end")
		}
	}
}

// listening is a hub served on a socket, as spillway mcp's is.
func listening(tb testing.TB) *console.Hub {
	tb.Helper()
	// A socket's path is short (108 bytes): not under the test's
	// directory.
	dir, err := os.MkdirTemp("/tmp", "cc")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	hub := console.NewHub(nil, true)
	srv, err := console.Listen(filepath.Join(dir, "console"), hub, console.ServerInfo{Kind: "mcp"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.Close() })
	return hub
}

// settledGoroutines is the number of goroutines once it has stayed the
// same for ten looks in a row (what ended is gone, what started waits).
func settledGoroutines() int {
	last, same := runtime.NumGoroutine(), 0
	for deadline := time.Now().Add(5 * time.Second); same < 10 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		if n := runtime.NumGoroutine(); n == last {
			same++
		} else {
			last, same = n, 0
		}
	}
	return last
}

// consoleGoroutines counts the goroutines running code of the console.
func consoleGoroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "spillway/internal/console.") || strings.Contains(g, "mcpserver.consoleSource") {
			count++
		}
	}
	return count
}

// A session of a server with a console holds no goroutine a server
// without one does not, while no page is open: what it costs in
// goroutines to open a session and run commands in it (one of them a
// background job) is the same with the console as without, and none of
// its goroutines runs the console's code. Not parallel: it counts the
// process's goroutines.
func TestConsoleSessionHoldsNoGoroutine(t *testing.T) {
	hub := listening(t)
	serving := consoleGoroutines() // the socket's accept loop
	cost := func(hub *console.Hub) (held, console int) {
		before := settledGoroutines()
		cs, stop := inProcess(t, hub)
		defer stop()
		call(t, cs, "bash", map[string]any{"command": "true"})
		res := call(t, cs, "bash", map[string]any{"command": "sleep 30", "run_in_background": true})
		call(t, cs, "bash", map[string]any{"check_pid": details(t, res)["pid"], "timeout": 100})
		held = settledGoroutines() - before
		console = consoleGoroutines() - serving
		call(t, cs, "bash", map[string]any{"kill_pid": details(t, res)["pid"]})
		return held, console
	}
	// Other tests' goroutines may still be ending: a difference must
	// hold in three tries to count.
	var tries []string
	for range 3 {
		plain, _ := cost(nil)
		with, console := cost(hub)
		if console != 0 {
			t.Fatalf("%d goroutines of the console run for a session with no page open", console)
		}
		if with == plain {
			t.Logf("a session holds %d goroutines with the console and without", with)
			return
		}
		tries = append(tries, fmt.Sprintf("%d with, %d without", with, plain))
	}
	t.Errorf("a session holds more goroutines with the console: %s", strings.Join(tries, "; "))
}

// `bash true` through MCP, with the console on (a hub on its socket,
// no page open) and off, interleaved in one run so that both see the
// same machine, each first, second and third in turn. It reports each
// p50 and their ratio, and, as the noise to judge it by, the ratio of
// two servers without the console.
//
//	go test ./mcpserver -run '^$' -bench ConsoleBashTrue -benchtime 400x
func BenchmarkConsoleBashTrue(b *testing.B) {
	off, stopOff := inProcess(b, nil)
	defer stopOff()
	off2, stopOff2 := inProcess(b, nil)
	defer stopOff2()
	on, stopOn := inProcess(b, listening(b))
	defer stopOn()
	ctx := context.Background()
	run := func(cs *mcp.ClientSession) time.Duration {
		t0 := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "true"}})
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
		return time.Since(t0)
	}
	var tOff, tOff2, tOn []time.Duration
	// Each goes first, second and third in turn: a call right after
	// another may find the machine warmer or busier.
	turns := [][3]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}}
	for i := 0; b.Loop(); i++ {
		for _, which := range turns[i%3] {
			switch which {
			case 0:
				tOff = append(tOff, run(off))
			case 1:
				tOn = append(tOn, run(on))
			case 2:
				tOff2 = append(tOff2, run(off2))
			}
		}
	}
	p50 := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[len(d)/2]
	}
	mOff, mOn, mOff2 := p50(tOff), p50(tOn), p50(tOff2)
	b.ReportMetric(float64(mOff.Microseconds()), "off-p50-µs")
	b.ReportMetric(float64(mOn.Microseconds()), "on-p50-µs")
	b.ReportMetric(float64(mOn)/float64(mOff), "on/off")
	b.ReportMetric(float64(mOff2)/float64(mOff), "off/off-noise")
}
