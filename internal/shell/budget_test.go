package shell

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// utf16Len is the length of s as JavaScript counts it (Claude Code's
// 50,000-character limit is a JavaScript string length).
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// wide prints lines 1..n, each padded to 80 columns: 2000 of them are
// over a stream's 50 KB, so bytes cut before lines do.
const wide = `awk 'BEGIN { for (i = 1; i <= 300000; i++) printf "%d %078d\n", i, 0 }'`

// Both streams flooding: the whole result fits the default budget and
// still holds each stream's head, tail and notice with its spill file.
func TestResultBudgetBothStreams(t *testing.T) {
	for _, c := range []struct{ name, cmd, last string }{
		{"seq", "seq 1 300000; seq 1 300000 >&2", "\n300000\n"},
		{"wide", wide + "; " + wide + " >&2", "\n300000 0000"},
	} {
		t.Run(c.name, func(t *testing.T) { checkBothStreams(t, c.cmd, c.last) })
	}
}

func checkBothStreams(t *testing.T, cmd, last string) {
	store := spill.NewSession(spill.Config{TempDir: t.TempDir()})
	defer store.Close()
	cfg := defaultConfig(t)
	cfg.Spill = store
	r := NewRunner(cfg)
	defer r.Close()
	res, err := r.Run(context.Background(), tool.BashInput{Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Text
	t.Logf("result: %d bytes, %d UTF-16 units", len(text), utf16Len(text))
	if len(text) > policy.DefaultResultBudget || utf16Len(text) > policy.DefaultResultBudget {
		t.Fatalf("result is %d bytes, over the budget %d", len(text), policy.DefaultResultBudget)
	}
	outSec, errSec, ok := strings.Cut(text, "\nstderr:\n")
	if !ok || !strings.HasPrefix(outSec, "stdout:\n1") || !strings.Contains(outSec, "\n2") || !strings.HasPrefix(errSec, "1") || !strings.Contains(errSec, "\n2") {
		t.Fatalf("a stream's head is missing:\n%.300s\n...\n%.300s", outSec, errSec)
	}
	for name, sec := range map[string]string{"stdout": outSec, "stderr": errSec} {
		if !strings.Contains(sec, last) {
			t.Errorf("%s: the tail (line 300000) is missing", name)
		}
		if !strings.Contains(sec, "[... ") {
			t.Errorf("%s: no omission marker", name)
		}
		notice := "[" + name + ": showing lines 1-"
		i := strings.Index(sec, notice)
		if i < 0 {
			t.Errorf("%s: no notice", name)
			continue
		}
		line, _, _ := strings.Cut(sec[i:], "\n")
		_, path, ok := strings.Cut(line, "Full output: ")
		path, _, _ = strings.Cut(strings.TrimSuffix(path, "]"), ". To see")
		if !ok {
			t.Errorf("%s: notice %q names no spill file", name, line)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(data), strings.TrimSuffix(last, "\n")) {
			t.Errorf("%s: spill file %s does not hold the whole stream (%v)", name, path, err)
		}
		// The notice's limit is the share the stream got, not its own 50 KB.
		if strings.Contains(line, "(50.0KB limit)") {
			t.Errorf("%s: notice %q names the stream's own limit, not its share", name, line)
		}
	}
	if !strings.HasSuffix(text, "exit code: 0") {
		t.Errorf("no status line at the end")
	}
}

// A stream that needs little leaves the rest to the other.
func TestResultBudgetSmallStreamGivesItsShare(t *testing.T) {
	store := spill.NewSession(spill.Config{TempDir: t.TempDir()})
	defer store.Close()
	cfg := defaultConfig(t)
	cfg.Spill = store
	r := NewRunner(cfg)
	defer r.Close()
	res, err := r.Run(context.Background(), tool.BashInput{Command: wide + "; echo warning >&2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Text) > policy.DefaultResultBudget {
		t.Fatalf("result is %d bytes", len(res.Text))
	}
	if !strings.Contains(res.Text, "\nstderr:\nwarning\n") {
		t.Errorf("stderr is not shown whole")
	}
	// stdout keeps nearly the whole budget: far more than half of it.
	if out := res.Stdout.Truncation.OutputBytes; out < 45_000 {
		t.Errorf("stdout shows %d bytes; it should get stderr's unused share", out)
	}
}

// No budget (a profile's own per-stream limits): each stream shows its
// own limit.
func TestResultBudgetZeroKeepsStreamLimits(t *testing.T) {
	cfg := defaultConfig(t)
	cfg.ResultBudget = 0
	r := NewRunner(cfg)
	defer r.Close()
	res, err := r.Run(context.Background(), tool.BashInput{Command: wide + "; " + wide + " >&2"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stdout.Truncation.OutputBytes+res.Stderr.Truncation.OutputBytes < 100_000 {
		t.Errorf("without a budget both streams should show about 50 KB: %+v", res.Details)
	}
}

// The property: whatever the two streams and their limits, the whole
// rendered result fits the budget. The fitting measures whatever text the
// renderer gives; testRender stands in for the root's here.
func FuzzResultBudget(f *testing.F) {
	f.Add(uint64(1), uint64(2), 50_000, 300000, 300000, "")
	f.Add(uint64(3), uint64(4), 2_000, 10, 100000, "[a long note about what to do next]")
	f.Add(uint64(5), uint64(6), 2_500, 1, 1, "")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, k1, k2 uint64, budget, outLines, errLines int, note string) {
		budget = policy.MinResultBudget + abs(budget)%200_000
		rng := rand.New(rand.NewPCG(k1, k2))
		store := spill.NewSession(spill.Config{TempDir: dir})
		defer store.Close()
		limits := func() output.Limits {
			return output.Limits{
				Strategy:     []output.Strategy{output.Head, output.Tail, output.HeadTail}[rng.IntN(3)],
				HeadShare:    rng.Float64(),
				MaxLines:     1 + rng.IntN(5000),
				MaxBytes:     1 + rng.IntN(200_000),
				MaxLineChars: rng.IntN(3000),
			}
		}
		fill := func(name string, lines int) *output.Pipeline {
			p := output.New(output.Options{Limits: limits(), Spill: store.Opener("bash", 1, name)})
			lines = abs(lines) % 20_000
			var b strings.Builder
			for i := range lines {
				n := rng.IntN(40)
				if rng.IntN(100) == 0 {
					n = rng.IntN(20_000) // now and then a long line
				}
				fmt.Fprintf(&b, "%d %s é\n", i, strings.Repeat("x", n))
			}
			if rng.IntN(2) == 0 {
				b.WriteString("unfinished prompt> ")
			}
			p.Write([]byte(b.String()))
			if rng.IntN(2) == 0 {
				p.Close()
			}
			return p
		}
		stdout := fill("stdout", outLines)
		var stderr *output.Pipeline
		if rng.IntN(4) != 0 {
			stderr = fill("stderr", errLines)
		}
		if len(note) > 300 {
			note = note[:300]
		}
		text := func(o output.Result, e *output.Result) string {
			return testRender(Page{Stdout: o, Stderr: e, Empty: "(no output)", Exit: &Exit{Code: 1},
				Notes: []string{"[Still running: use check_pid=12345 for new output, kill_pid=12345 to stop it.]", note}})
		}
		o, e := cutWithin(budget, stdout, stderr, text)
		if text := text(o, e); len(text) > budget {
			t.Fatalf("result is %d bytes, over the budget %d (stdout %d, stderr %d bytes shown)",
				len(text), budget, len(o.Text()), len(e.Text()))
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
