//go:build linux

package spillway_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/spillway-dev/spillway"
)

// Attacks on the library as an agent's tool calls would make them. Each
// got through before its fix; the bounded waits only catch hangs.

// ls of a directory that another process keeps swapping with a FIFO
// (renameat2 RENAME_EXCHANGE) returns every time, listing or refusing,
// and never waits for the FIFO's writer.
func TestAttackLsDirSwappedForFIFO(t *testing.T) {
	dir := t.TempDir()
	target, fifo := filepath.Join(dir, "d"), filepath.Join(dir, "f")
	os.Mkdir(target, 0o755)
	os.WriteFile(filepath.Join(target, "x"), nil, 0o644)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	stop := exchangeWhile(target, fifo)
	callsReturn(t, 3000, "ls of a directory swapped for a FIFO", func() {
		ts.Ls(context.Background(), spillway.LsInput{Path: "d"})
	})
	t.Logf("3000 ls calls, %d swaps", stop())
}

// exchangeWhile swaps the two paths (renameat2 RENAME_EXCHANGE) over and
// over, as another process could, until the function it returns is called;
// that returns the number of swaps.
func exchangeWhile(a, b string) (stop func() int) {
	var stopped atomic.Bool
	swapped := make(chan int)
	go func() {
		n := 0
		for !stopped.Load() {
			if unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE) == nil {
				n++
			}
		}
		swapped <- n
	}()
	return func() int {
		stopped.Store(true)
		return <-swapped
	}
}

// callsReturn makes n calls of call, and fails when they have not all
// returned in a minute: they hung.
func callsReturn(t *testing.T, n int, what string, call func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range n {
			call()
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal(what + " hung")
	}
}

// grep over a tree where a file another process keeps swapping with a
// FIFO (renameat2 RENAME_EXCHANGE), whose writer never stops, returns
// every time: the FIFO is opened without blocking, and read no further
// than what the pipe holds (a short read ends a file; an empty pipe is an
// error). Reading on until the end, with blocking reads, hung here.
func TestAttackGrepFileSwappedForEndlessFIFO(t *testing.T) {
	dir := t.TempDir()
	target, fifo := filepath.Join(dir, "f.txt"), filepath.Join(dir, "p")
	os.WriteFile(target, []byte("needle in a file\n"), 0o644)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// The writer holds the FIFO open (O_RDWR needs no reader to open) and
	// writes lines that do not match, so that nothing a grep holds grows
	// while it reads.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wrote atomic.Int64
	writer := make(chan struct{})
	go func() {
		defer close(writer)
		line := []byte(strings.Repeat("x", 99) + "\n")
		for !stop.Load() {
			k, err := w.Write(line)
			if err != nil {
				return
			}
			wrote.Add(int64(k))
		}
	}()
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	stopSwaps := exchangeWhile(target, fifo)
	callsReturn(t, 2000, "grep over a file swapped for an endless FIFO", func() {
		ts.Grep(context.Background(), spillway.GrepInput{Pattern: "needle"})
	})
	swaps := stopSwaps()
	stop.Store(true)
	w.Close() // ends a write blocked on a full pipe
	<-writer
	t.Logf("2000 grep calls, %d swaps, %d bytes through the FIFO", swaps, wrote.Load())
}

// Twelve background floods against a 4 MiB spill budget: the session's
// spill files never hold more than the budget (the files being written
// count, and stop when it is reached — the results say so), and the file
// a result has just named is never the one deleted.
func TestAttackSpillBudgetFloods(t *testing.T) {
	const budget = 4 << 20
	p := spillway.DefaultPolicy()
	p.Spill.BudgetBytes = budget
	ts := bashToolset(t, spillway.Options{Policy: &p})
	ctx := context.Background()
	var pids []int
	for range 12 {
		r := bashRun(t, ts, spillway.BashInput{Command: "yes flood-line-of-forty-bytes-xxxxxxxxxxx | head -c 3000000; sleep 2", RunInBackground: true})
		pids = append(pids, r.Details.PID)
	}
	stopped := 0
	var peak int64
	for _, pid := range pids {
		var r spillway.Result[spillway.BashDetails]
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
			var err error
			if r, err = ts.CheckJob(ctx, spillway.CheckJobInput{PID: pid}); err != nil {
				t.Fatalf("check_pid %d: %v", pid, err)
			}
			peak = max(peak, onDisk(t, ts.SpillDir()))
			if !r.Details.Running {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if r.Details.Running {
			t.Fatalf("flood %d still running after 60 s", pid)
		}
		if strings.Contains(r.Text, "budget") {
			stopped++
		}
	}
	t.Logf("12 floods of 3,000,000 bytes: at most %d bytes on disk while they ran, budget %d; %d results say the budget stopped them", peak, budget, stopped)
	if peak > budget {
		t.Errorf("%d bytes of spill files on disk, over the %d budget", peak, budget)
	}
	if stopped == 0 {
		t.Error("no result says the budget stopped its spill file")
	}
	// A new result's file is there to be read, however full the budget.
	r := bashRun(t, ts, spillway.BashInput{Command: "seq 1 100000"})
	path := r.Details.Stdout.FullOutputPath
	if path == "" {
		t.Fatalf("no spill file: %q", r.Text)
	}
	if rr, err := ts.Read(ctx, spillway.ReadInput{Path: path, Offset: 99999}); err != nil {
		t.Errorf("read of the file a result just named: %q, %v", rr.Text, err)
	}
}

// onDisk sums the sizes of the regular files under dir.
func onDisk(t *testing.T, dir string) int64 {
	t.Helper()
	var total int64
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			if info, err := e.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}
