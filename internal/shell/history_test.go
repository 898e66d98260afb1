//go:build unix

package shell

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/tool"
)

// Tests of showing a recorded call's output again: the history keeps
// what each stream's spill file and tail hold, and Render picks lines from
// them without running anything.

// seqLines is "from\n" … "to\n", as seq prints them.
func seqLines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// shownText is the content of a re-rendered stream: the text between
// "stdout:\n" and its bracketed notice.
func shownText(t *testing.T, s *Shown) string {
	t.Helper()
	if s == nil || s.Err != nil {
		t.Fatalf("stdout not shown: %+v", s)
	}
	i := strings.LastIndex(s.Body, "\n[")
	if i < 0 {
		return ""
	}
	return s.Body[:i+1]
}

// failed reports whether a stream could not be shown.
func failed(r rendered) bool {
	return r.Stdout != nil && r.Stdout.Err != nil || r.Stderr != nil && r.Stderr.Err != nil
}

func TestHistoryRerender(t *testing.T) {
	sh := testRunner(t, defaultConfig(t), defaultStore())
	id := runOK(t, sh, tool.BashInput{Command: "seq 1 10000; echo oops >&2"}).Details.HistoryID
	small := runOK(t, sh, tool.BashInput{Command: "printf 'a\\nb\\nc\\n'"}).Details.HistoryID
	cases := []struct {
		in   tool.HistoryInput
		want string
	}{
		{tool.HistoryInput{ID: id, Stream: "stdout", Strategy: "tail", MaxLines: 5}, seqLines(9996, 10000)},
		{tool.HistoryInput{ID: id, Stream: "stdout", Strategy: "head", MaxLines: 3}, seqLines(1, 3)},
		{tool.HistoryInput{ID: id, Stream: "stdout", Offset: 5000, MaxLines: 3}, seqLines(5000, 5002)},
		{tool.HistoryInput{ID: id, Stream: "stdout", Strategy: "tail", MaxBytes: 12}, seqLines(9999, 10000) + ""},
		{tool.HistoryInput{ID: id, Stream: "stdout", Pattern: "^(77|7777)$"}, "77: 77\n7777: 7777\n"},
		{tool.HistoryInput{ID: id, Stream: "stdout", Strategy: "head_tail", MaxLines: 4}, "1\n[... 9996 lines (47.7KB) omitted ...]\n9998\n9999\n10000\n"},
		{tool.HistoryInput{ID: small, Strategy: "tail", MaxLines: 1}, "c\n"},
		{tool.HistoryInput{ID: small, Offset: 2, MaxLines: 1}, "b\n"},
		{tool.HistoryInput{ID: small}, "a\nb\nc\n"},
	}
	for _, c := range cases {
		r, err := render(sh, c.in)
		if err != nil || failed(r) {
			t.Errorf("%+v: %v %+v", c.in, err, r)
			continue
		}
		if got := shownText(t, r.Stdout); got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q\n(body %q)", c.in, got, c.want, r.Stdout.Body)
		}
	}
	r, _ := render(sh, tool.HistoryInput{ID: id, Strategy: "tail", MaxLines: 2})
	if r.Stderr == nil || !strings.HasPrefix(r.Stderr.Body, "oops\n") || !strings.Contains(r.Stdout.Body, "[tail: lines 9999-10000 of 10000") ||
		r.Stdout.FirstLine != 9999 || r.Stdout.LastLine != 10000 || r.Exit.String() != "exit code: 0" {
		t.Errorf("both streams: %+v %+v %+v", r.Stdout, r.Stderr, r.Record)
	}
	for _, bad := range []tool.HistoryInput{
		{ID: 99}, {}, {ID: id, Pattern: "("},
	} {
		if r, err := render(sh, bad); err == nil {
			t.Errorf("%+v: want an error, got %+v", bad, r)
		}
	}
	if r, err := render(sh, tool.HistoryInput{ID: id, Offset: 20000}); err != nil || r.Stdout.Err == nil || !strings.Contains(r.Stdout.Err.Error(), "past the end") {
		t.Errorf("offset past the end: %v %+v", err, r.Stdout)
	}
}

// A stream past the spill cap: the file holds its start and the history
// keeps its end; a line in between is said to be lost, never made up.
func TestHistoryCappedStream(t *testing.T) {
	sc := defaultStore()
	sc.MaxFileBytes = 1 << 20
	sh := testRunner(t, defaultConfig(t), sc)
	res := runOK(t, sh, tool.BashInput{Command: "seq 1 2000000"}) // 14.9 MB
	if !res.Stdout.SpillCapped {
		t.Fatalf("not capped: %+v", res.Stdout)
	}
	id := res.Details.HistoryID
	rec := sh.History()[0]
	if rec.Stdout.TailPath == "" || rec.Stdout.TotalLines != 2000000 {
		t.Fatalf("record: %+v", rec.Stdout)
	}
	for _, c := range []struct {
		in   tool.HistoryInput
		want string
	}{
		{tool.HistoryInput{ID: id, Strategy: "tail", MaxLines: 3}, seqLines(1999998, 2000000)},
		{tool.HistoryInput{ID: id, Offset: 1999000, MaxLines: 2}, seqLines(1999000, 1999001)},
		{tool.HistoryInput{ID: id, Offset: 1000, MaxLines: 2}, seqLines(1000, 1001)},
		{tool.HistoryInput{ID: id, Strategy: "head_tail", MaxLines: 2}, "1\n[... 1999998 lines (14.2MB) omitted ...]\n2000000\n"},
		{tool.HistoryInput{ID: id, Pattern: "^1999999$"}, "1999999: 1999999\n"},
	} {
		r, err := render(sh, c.in)
		if err != nil || failed(r) {
			t.Errorf("%+v: %v %+v", c.in, err, r)
			continue
		}
		if got := shownText(t, r.Stdout); got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q", c.in, got, c.want)
		}
		if !strings.Contains(r.Stdout.Body, "lost") {
			t.Errorf("%+v: the notice does not say that lines were lost: %q", c.in, r.Stdout.Body)
		}
	}
	r2, _ := render(sh, tool.HistoryInput{ID: id, Offset: 1000000, MaxLines: 2})
	if r2.Stdout.Err == nil || !strings.Contains(r2.Stdout.Err.Error(), "line 1000000 was not saved") {
		t.Errorf("a line past the cap: %+v", r2.Stdout)
	}
}

// The ring forgets the oldest call first; its spill file goes with it
// only once no result has named it for keep_named.
func TestHistoryRingForgetsOldest(t *testing.T) {
	for _, keep := range []time.Duration{spill.DefaultKeepNamed, time.Millisecond} {
		sc := defaultStore()
		sc.KeepNamed = keep
		sh := testRunner(t, defaultConfig(t), sc)
		first := runOK(t, sh, tool.BashInput{Command: "seq 1 5000"})
		path := first.Stdout.FullOutputPath
		for i := 0; i < 200; i++ {
			runOK(t, sh, tool.BashInput{Command: "true"})
		}
		all := sh.History()
		if len(all) != 200 || all[0].ID != 2 || all[199].ID != 201 {
			t.Fatalf("ring: %d records, %d to %d", len(all), all[0].ID, all[len(all)-1].ID)
		}
		_, err := os.Stat(path)
		cause, deleted := sh.cfg.Spill.Deleted(path)
		switch {
		case keep > time.Millisecond && (err != nil || deleted):
			t.Errorf("keep_named %v: the forgotten call's spill file %s, named a moment ago, was deleted (%v, %q)", keep, path, err, cause)
		case keep == time.Millisecond && (!os.IsNotExist(err) || cause != spill.CauseHistory):
			t.Errorf("keep_named 1 ms: the forgotten call's spill file %s is still there (%v) or its cause is %q", path, err, cause)
		}
		if _, err := render(sh, tool.HistoryInput{ID: 1}); err == nil || !strings.Contains(err.Error(), "holds calls 2 to 201") {
			t.Errorf("forgotten id: %v", err)
		}
	}
}

// The flood of docs/tools.md's promise: 1.4 GB of output, re-rendered from the history with
// tail and with a line range. The figures are logged, not asserted.
func TestHistoryFloodRerender(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 1.4 GB through the pipeline")
	}
	sh := testRunner(t, defaultConfig(t), defaultStore())
	start := time.Now()
	res := runOK(t, sh, tool.BashInput{Command: "seq 1 150000000"})
	run := time.Since(start)
	d := res.Stdout
	if d.Truncation.TotalLines != 150000000 || !d.SpillCapped {
		t.Fatalf("flood: %+v", d)
	}
	t.Logf("seq 1 150000000: %s of output in %v", "1.4GB", run)
	for _, c := range []struct {
		in   tool.HistoryInput
		want string
	}{
		{tool.HistoryInput{ID: res.Details.HistoryID, Strategy: "tail", MaxLines: 5}, seqLines(149999996, 150000000)},
		{tool.HistoryInput{ID: res.Details.HistoryID, Offset: 149990000, MaxLines: 3}, seqLines(149990000, 149990002)},
		{tool.HistoryInput{ID: res.Details.HistoryID, Offset: 10000000, MaxLines: 3}, seqLines(10000000, 10000002)},
	} {
		start := time.Now()
		res, err := render(sh, c.in)
		took := time.Since(start)
		if err != nil || failed(res) {
			t.Errorf("%+v: %v %+v", c.in, err, res)
			continue
		}
		if got := shownText(t, res.Stdout); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.in, got, c.want)
		}
		t.Logf("re-render %+v: %v", c.in, took)
	}
}

// rendered is what Runner.Render returns, together, for the tests' checks.
type rendered struct {
	Record         tool.HistoryRecord
	Exit           Exit
	Stdout, Stderr *Shown
}

func render(sh *Runner, sel tool.HistoryInput) (rendered, error) {
	rec, exit, stdout, stderr, err := sh.Render(sel)
	return rendered{rec, exit, stdout, stderr}, err
}

// What a call said of a background job's end, the history says too, at
// once: a job that write_stdin, check_pid or kill_pid reported ended is
// not listed as running in the history read right after, with no exit
// code and none of its output.
func TestHistoryShowsTheEndACallReported(t *testing.T) {
	sh := testRunner(t, defaultConfig(t), defaultStore())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ended := func(how string, i int, id int) {
		t.Helper()
		for _, rec := range sh.History() {
			if rec.ID != id {
				continue
			}
			if rec.Running || rec.ExitCode == nil {
				t.Errorf("%s %d: the call said the job ended; the history says running %v, exit code %v", how, i, rec.Running, rec.ExitCode)
			}
			return
		}
		t.Errorf("%s %d: no record %d in the history", how, i, id)
	}
	for i := range 20 {
		res := runOK(t, sh, tool.BashInput{Command: "read a; echo got:$a", Stdin: true})
		if !res.Details.Running {
			t.Fatalf("the reader did not wait for input: %+v", res.Details)
		}
		w, err := sh.Write(ctx, tool.WriteStdinInput{PID: res.Details.PID, Input: "x\n", CloseStdin: true, Timeout: 30 * time.Second})
		if err != nil || w.Details.Running {
			t.Fatalf("write_stdin: %v, %+v", err, w.Details)
		}
		ended("write_stdin", i, res.Details.HistoryID)

		res = runOK(t, sh, tool.BashInput{Command: "sleep 0.05; echo done", Timeout: time.Millisecond})
		c, err := sh.Check(ctx, res.Details.PID, 30*time.Second, "")
		for err == nil && c.Details.Running {
			c, err = sh.Check(ctx, res.Details.PID, 30*time.Second, "")
		}
		if err != nil {
			t.Fatal(err)
		}
		ended("check_pid", i, res.Details.HistoryID)

		res = runOK(t, sh, tool.BashInput{Command: "sleep 60", Timeout: time.Millisecond})
		if k, err := sh.Kill(ctx, res.Details.PID); err != nil || k.Details.Running {
			t.Fatalf("kill_pid: %v, %+v", err, k.Details)
		}
		ended("kill_pid", i, res.Details.HistoryID)
	}
}
