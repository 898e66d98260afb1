// Command mcp-roundtrip measures the stdio round trip of a bash call
// through spillway's MCP server against a bare `bash -c true`, in the same
// run, interleaved so that both see the same machine noise.
//
//	go run ./bench/mcp-roundtrip [-n 300] [-bin path/to/spillway] [-root DIR]
//
// One round trip is an SDK client's tools/call of bash {"command":"true"}
// to `spillway mcp` over stdin/stdout, answered; the reference is
// exec.Command("bash", "-c", "true").Run() from the same process (the
// library's Toolset.Bash in-process is shown too, to tell the cost of MCP
// from the cost of the bash tool itself). With -root, two more servers
// are measured in the same rotation: `spillway mcp --root DIR --sandbox`
// and the same with --no-network. It prints the medians, the p90s and the
// ratio of the medians, then one machine-readable line per kind
// ("p50_us NAME MICROSECONDS"), and exits 1 when the plain server's ratio
// is over -max (2 by default). With -rules FILE (bench/mcp-roundtrip/rules.toml
// is one), `spillway mcp --config FILE` is measured beside `spillway mcp
// --config EMPTY`, a config file with nothing in it, so that the two differ
// only by the rules; -max-rules fails the run when their ratio is over it.
// With both -root and -rules, the same pair runs under --root DIR
// --sandbox too: there a deny rule that names a program (rm *) is also
// held at exec (docs/rules.md, "Deny at exec"), so their ratio is the
// exec check's cost. -command replaces true as the command every kind
// runs (bench/execdeny.sh gives a make -j of many small targets).
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
	root := flag.String("root", "", "also measure spillway mcp --root DIR --sandbox, and with --no-network")
	maxRatio := flag.Float64("max", 2, "fail when median(mcp)/median(bare) is over this")
	rules := flag.String("rules", "", "also measure spillway mcp --config FILE, a config with command rules, beside mcp --config with an empty file")
	maxRules := flag.Float64("max-rules", 1.05, "with -rules, fail when median(rules)/median(empty config) is over this")
	flag.StringVar(&command, "command", "true", "the command every kind runs (bash -c COMMAND)")
	flag.Parse()
	if err := run(*n, *warm, *bin, *root, *rules, *maxRatio, *maxRules); err != nil {
		fmt.Fprintln(os.Stderr, "mcp-roundtrip:", err)
		os.Exit(1)
	}
}

// A kind is one way of running bash true, and its measured times.
type kind struct {
	name    string
	label   string
	measure func() (time.Duration, error)
	times   []time.Duration
}

// command is what every kind runs.
var command = "true"

func run(n, warm int, bin, root, rules string, maxRatio, maxRules float64) error {
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

	// server starts `spillway mcp ARGS...` and returns a measure of its
	// bash true round trip.
	var sessions []*mcp.ClientSession
	defer func() {
		for _, cs := range sessions {
			cs.Close()
		}
	}()
	server := func(args ...string) (func() (time.Duration, error), error) {
		cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
		cmd.Stderr = os.Stderr
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcp-roundtrip", Version: "1"}, nil).
			Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			return nil, fmt.Errorf("starting spillway mcp %v: %v", args, err)
		}
		sessions = append(sessions, cs)
		return func() (time.Duration, error) {
			start := time.Now()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": command}})
			d := time.Since(start)
			if err != nil {
				return 0, err
			}
			if res.IsError {
				return 0, fmt.Errorf("bash %q (spillway mcp %v) returned an error: %v", command, args, res.Content)
			}
			return d, nil
		}, nil
	}
	viaMCP, err := server()
	if err != nil {
		return err
	}
	ts, err := spillway.New(spillway.Options{})
	if err != nil {
		return err
	}
	defer ts.Close()
	library := func() (time.Duration, error) {
		start := time.Now()
		res, err := ts.Bash(ctx, spillway.BashInput{Command: command})
		d := time.Since(start)
		if err != nil || res.IsError {
			return 0, fmt.Errorf("bash %q failed: %v %s", command, err, res.Text)
		}
		return d, nil
	}
	bare := func() (time.Duration, error) {
		start := time.Now()
		c := exec.Command("bash", "-c", command)
		if root != "" {
			c.Dir = root
		}
		err := c.Run()
		return time.Since(start), err
	}

	b := &kind{name: "bare", label: "bare bash -c COMMAND", measure: bare}
	l := &kind{name: "library", label: "spillway library", measure: library}
	m := &kind{name: "mcp", label: "spillway mcp (stdio)", measure: viaMCP}
	kinds := []*kind{m, l, b}
	if root != "" {
		sb, err := server("--root", root, "--sandbox")
		if err != nil {
			return err
		}
		nn, err := server("--root", root, "--sandbox", "--no-network")
		if err != nil {
			return err
		}
		kinds = append(kinds,
			&kind{name: "sandbox", label: "mcp --sandbox", measure: sb},
			&kind{name: "sandbox-no-network", label: "mcp --sandbox --no-network", measure: nn})
	}
	if rules != "" {
		empty, err := os.CreateTemp("", "mcp-roundtrip-*.toml")
		if err != nil {
			return err
		}
		empty.Close()
		defer os.Remove(empty.Name())
		without, err := server("--config", empty.Name())
		if err != nil {
			return err
		}
		withRules, err := server("--config", rules)
		if err != nil {
			return err
		}
		if root != "" {
			sbWithout, err := server("--root", root, "--sandbox", "--config", empty.Name())
			if err != nil {
				return err
			}
			sbWith, err := server("--root", root, "--sandbox", "--config", rules)
			if err != nil {
				return err
			}
			kinds = append(kinds,
				&kind{name: "sandbox-empty-config", label: "mcp --sandbox --config EMPTY", measure: sbWithout},
				&kind{name: "sandbox-rules", label: "mcp --sandbox --config RULES", measure: sbWith})
		}
		kinds = append(kinds,
			&kind{name: "mcp-empty-config", label: "mcp --config EMPTY", measure: without},
			&kind{name: "mcp-rules", label: "mcp --config RULES", measure: withRules})
	}
	for i := range warm + n {
		// Rotate which goes first, so that none always runs right after
		// the same other.
		order := slices.Clone(kinds)
		for range i % len(kinds) {
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
	fmt.Printf("bash %q, %d round trips each (after %d warm-up), interleaved\n", command, n, warm)
	for _, k := range []*kind{b, l, m} {
		fmt.Printf("  %-28s median %8s  p90 %8s\n", k.label, round(quantile(k.times, 0.5)), round(quantile(k.times, 0.9)))
	}
	for _, k := range kinds[3:] {
		fmt.Printf("  %-28s median %8s  p90 %8s\n", k.label, round(quantile(k.times, 0.5)), round(quantile(k.times, 0.9)))
	}
	var rulesRatio float64
	if rules != "" {
		r, e := kinds[len(kinds)-1], kinds[len(kinds)-2]
		rulesRatio = float64(quantile(r.times, 0.5)) / float64(quantile(e.times, 0.5))
		fmt.Printf("  ratio of medians rules/empty config  %.3fx (target <= %.3fx)\n", rulesRatio, maxRules)
		if root != "" {
			r, e := kinds[len(kinds)-3], kinds[len(kinds)-4]
			fmt.Printf("  ratio of medians with --sandbox, rules/empty config  %.3fx (the exec check's cost)\n",
				float64(quantile(r.times, 0.5))/float64(quantile(e.times, 0.5)))
		}
	}
	mMed, bMed := quantile(m.times, 0.5), quantile(b.times, 0.5)
	ratio := float64(mMed) / float64(bMed)
	fmt.Printf("  ratio of medians mcp/bare   %.2fx (target <= %.2fx)\n", ratio, maxRatio)
	for _, k := range kinds {
		fmt.Printf("p50_us %s %d\n", k.name, quantile(k.times, 0.5).Microseconds())
	}
	if ratio > maxRatio {
		return fmt.Errorf("the MCP round trip is %.2fx a bare bash -c true, over the %.2fx target", ratio, maxRatio)
	}
	if rules != "" && rulesRatio > maxRules {
		return fmt.Errorf("the MCP round trip with rules is %.3fx the one without, over the %.3fx target", rulesRatio, maxRules)
	}
	return nil
}

func quantile(ds []time.Duration, q float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

func round(d time.Duration) time.Duration { return d.Round(time.Microsecond) }
