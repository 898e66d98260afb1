// Command mcp-roundtrip measures the stdio round trip of a bash call
// through spillway's MCP server against a bare `bash -c true`, in the same
// run, interleaved so that both see the same machine noise.
//
//	go run ./bench/mcp-roundtrip [-n 300] [-bin path/to/spillway]
//
// One round trip is an SDK client's tools/call of bash {"command":"true"}
// to `spillway mcp` over stdin/stdout, answered; the reference is
// exec.Command("bash", "-c", "true").Run() from the same process (the
// library's Toolset.Bash in-process is shown too, to tell the cost of MCP
// from the cost of the bash tool itself). It prints
// the medians, the p90s and the ratio of the medians, and exits 1 when the
// ratio is over -max (2 by default).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
)

func main() {
	n := flag.Int("n", 300, "measured round trips of each kind")
	warm := flag.Int("warmup", 20, "unmeasured round trips of each kind first")
	bin := flag.String("bin", "", "spillway binary (default: build ./cmd/spillway)")
	maxRatio := flag.Float64("max", 2, "fail when median(mcp)/median(bare) is over this")
	flag.Parse()
	if err := run(*n, *warm, *bin, *maxRatio); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-roundtrip:", err)
		os.Exit(1)
	}
}

func run(n, warm int, bin string, maxRatio float64) error {
	if bin == "" {
		dir, err := os.MkdirTemp("", "mcp-roundtrip-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "spillway")
		if out, err := exec.Command("go", "build", "-o", bin, "github.com/spillway-dev/spillway/cmd/spillway").CombinedOutput(); err != nil {
			return fmt.Errorf("building spillway: %v\n%s", err, out)
		}
	}
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp")
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcp-roundtrip", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return fmt.Errorf("starting spillway mcp: %v", err)
	}
	defer cs.Close()

	viaMCP := func() (time.Duration, error) {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "true"}})
		d := time.Since(start)
		if err != nil {
			return 0, err
		}
		if res.IsError {
			return 0, fmt.Errorf("bash true returned an error: %v", res.Content)
		}
		return d, nil
	}
	ts, err := spillway.New(spillway.Options{})
	if err != nil {
		return err
	}
	defer ts.Close()
	library := func() (time.Duration, error) {
		start := time.Now()
		res, err := ts.Bash(ctx, spillway.BashInput{Command: "true"})
		d := time.Since(start)
		if err != nil || res.IsError {
			return 0, fmt.Errorf("bash true failed: %v %s", err, res.Text)
		}
		return d, nil
	}
	bare := func() (time.Duration, error) {
		start := time.Now()
		err := exec.Command("bash", "-c", "true").Run()
		return time.Since(start), err
	}

	type kind struct {
		measure func() (time.Duration, error)
		times   []time.Duration
	}
	m, l, b := &kind{measure: viaMCP}, &kind{measure: library}, &kind{measure: bare}
	for i := range warm + n {
		// Rotate which goes first, so that none always runs right after
		// the same other.
		order := []*kind{m, l, b}
		for range i % 3 {
			order = append(order[1:], order[0])
		}
		for _, k := range order {
			d, err := k.measure()
			if err != nil {
				return err
			}
			if i >= warm {
				k.times = append(k.times, d)
			}
		}
	}
	mcpTimes, bareTimes := m.times, b.times
	mMed, bMed := quantile(mcpTimes, 0.5), quantile(bareTimes, 0.5)
	ratio := float64(mMed) / float64(bMed)
	fmt.Printf("bash true, %d round trips each (after %d warm-up)\n", n, warm)
	fmt.Printf("  bare bash -c true        median %8s  p90 %8s\n", round(bMed), round(quantile(bareTimes, 0.9)))
	fmt.Printf("  spillway library         median %8s  p90 %8s  (in-process Toolset.Bash, for reference)\n",
		round(quantile(l.times, 0.5)), round(quantile(l.times, 0.9)))
	fmt.Printf("  spillway mcp (stdio)     median %8s  p90 %8s\n", round(mMed), round(quantile(mcpTimes, 0.9)))
	fmt.Printf("  ratio of medians         %.2fx (target <= %.2fx)\n", ratio, maxRatio)
	if ratio > maxRatio {
		return fmt.Errorf("the MCP round trip is %.2fx a bare bash -c true, over the %.2fx target", ratio, maxRatio)
	}
	return nil
}

func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

func round(d time.Duration) time.Duration { return d.Round(time.Microsecond) }
