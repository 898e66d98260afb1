//go:build linux

package proc

import (
	"os/exec"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// Callers that arrive while a walk of /proc runs share the next walk:
// however many ask at once, two walks answer them, and each answer was
// begun after its question.
func TestSnapshotsAreShared(t *testing.T) {
	const callers = 50
	var walks atomic.Int32
	release := make(chan struct{})
	walkStarted = func() {
		if walks.Add(1) == 1 {
			<-release // hold the first walk until every other caller waits
		}
	}
	defer func() { walkStarted = nil }()

	var wg sync.WaitGroup
	first := make(chan *snapshot, 1)
	wg.Go(func() { first <- freshSnapshot(0) })
	for walks.Load() == 0 {
		runtime.Gosched()
	}
	// A process started after the first walk began: only a walk begun
	// later can see it, and that is the one the later callers must get.
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	later := make([]*snapshot, callers)
	for i := range later {
		wg.Go(func() {
			d := detail(0)
			if i%2 == 0 {
				d = withFDs
			}
			later[i] = freshSnapshot(d)
		})
	}
	for queued() < callers {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()

	if n := walks.Load(); n != 2 {
		t.Errorf("%d callers at once took %d walks, want 2", callers+1, n)
	}
	for i, s := range later {
		if s == nil || s.links == nil || !slices.ContainsFunc(s.procs, func(p snapProc) bool { return p.pid == cmd.Process.Pid }) {
			t.Fatalf("caller %d got a walk that began before it asked, or one without descriptors", i)
		}
	}
	if s := <-first; s.links != nil {
		t.Errorf("the first walk read descriptors no caller of it asked for")
	}
}

// queued counts the callers waiting for the next walk.
func queued() int {
	scans.mu.Lock()
	defer scans.mu.Unlock()
	if scans.next == nil {
		return 0
	}
	return scans.next.waiters
}
