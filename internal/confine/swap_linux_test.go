package confine

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSwapRace opens a path in a loop while another goroutine swaps its
// directory between a real one and a symlink out of the root: no open may
// ever return the secret.
func TestSwapRace(t *testing.T) {
	for _, mode := range openModes {
		t.Run(mode, func(t *testing.T) {
			root, outside := tree(t)
			write(t, outside+"/b.txt", "secret")
			must(t, os.Symlink(outside, root+"/swap"))
			r := newRoot(t, root)
			setOpenMode(t, mode)

			// renameat2(RENAME_EXCHANGE) swaps the real directory "dir" and
			// the symlink "swap" atomically: "dir" always exists, and is
			// by turns inside and a way out.
			var stop atomic.Bool
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					if err := unix.Renameat2(unix.AT_FDCWD, root+"/dir", unix.AT_FDCWD, root+"/swap", unix.RENAME_EXCHANGE); err != nil {
						t.Errorf("exchange: %v", err)
						return
					}
				}
			}()
			var opened, refusedN int
			for i := 0; i < 3000; i++ {
				f, err := r.Open("", "dir/b.txt", os.O_RDONLY)
				if err != nil {
					// os.Root, walking one component at a time, may also meet
					// "dir" as the symlink mid-walk: "not a directory".
					notDir := mode == "os.Root" && errors.Is(err, syscall.ENOTDIR)
					if !errors.Is(err, ErrOutside) && !errors.Is(err, os.ErrNotExist) && !notDir {
						t.Errorf("unexpected error: %v", err)
					}
					refusedN++
					continue
				}
				opened++
				if got := readAll(t, f); got != "b" {
					stop.Store(true)
					wg.Wait()
					t.Fatalf("open %d read %q from outside the root", i, got)
				}
			}
			stop.Store(true)
			wg.Wait()
			t.Logf("%s: %d opened inside, %d refused", mode, opened, refusedN)
			if refusedN == 0 {
				t.Error("the outside target was never refused: the race did not run")
			}
		})
	}
}
