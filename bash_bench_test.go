//go:build unix

package spillway_test

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// The per-call overhead of the bash tool: `true` through the toolset
// (pipes, pipelines, process group, job bookkeeping) against a bare
// exec.Command("bash", "-c", "true").Run(). Target: ≤ 1.3×.
//
//	go test -run '^$' -bench 'Bash|BareExec' .

func BenchmarkBashTrue(b *testing.B) {
	ts := bashToolset(b, spillway.Options{})
	ctx := context.Background()
	for b.Loop() {
		if r, err := ts.Bash(ctx, spillway.BashInput{Command: "true"}); err != nil || r.IsError {
			b.Fatal(err, r.Text)
		}
	}
}

func BenchmarkBareExecTrue(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBashOverheadRatio runs both, interleaved so that both see the
// same machine, and reports the ratio of their median call times
// ("ratio"; medians, because a loaded machine makes a few calls of either
// kind very slow) and of their mean call times ("mean-ratio").
func BenchmarkBashOverheadRatio(b *testing.B) {
	ts := bashToolset(b, spillway.Options{})
	ctx := context.Background()
	var bare, tool []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := exec.Command("bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if r, err := ts.Bash(ctx, spillway.BashInput{Command: "true"}); err != nil || r.IsError {
			b.Fatal(err, r.Text)
		}
		tool = append(tool, time.Since(t1))
		bare = append(bare, t1.Sub(t0))
	}
	mb, mt := median(bare), median(tool)
	b.ReportMetric(float64(mt)/float64(mb), "ratio")
	b.ReportMetric(float64(sum(tool))/float64(sum(bare)), "mean-ratio")
	b.ReportMetric(float64(mb.Nanoseconds()), "bare-median-ns")
	b.ReportMetric(float64(mt.Nanoseconds()), "toolset-median-ns")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func sum(d []time.Duration) (t time.Duration) {
	for _, x := range d {
		t += x
	}
	return t
}
