package spillway_test

import (
	"context"
	"os"
	"path/filepath"
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
	var stop atomic.Bool
	swapped := make(chan int)
	go func() {
		n := 0
		for !stop.Load() {
			if unix.Renameat2(unix.AT_FDCWD, target, unix.AT_FDCWD, fifo, unix.RENAME_EXCHANGE) == nil {
				n++
			}
		}
		swapped <- n
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 3000; i++ {
			ts.Ls(context.Background(), spillway.LsInput{Path: "d"})
		}
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("ls of a directory swapped for a FIFO hung")
	}
	stop.Store(true)
	t.Logf("3000 ls calls, %d swaps", <-swapped)
}
