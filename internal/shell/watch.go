package shell

import (
	"context"
	"sync"
	"time"
)

// An activity tells the calls waiting on a job (check_pid with a
// timeout) that new output arrived. The readers signal it only while
// someone waits, so a job nobody watches pays one atomic load a read.
type activity struct {
	mu      sync.Mutex
	waiters int
	ch      chan struct{} // closed at the next signal; nil while nobody waits
}

// watch returns a channel closed at the next signal, and the function
// that ends the watch.
func (a *activity) watch() (<-chan struct{}, func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ch == nil {
		a.ch = make(chan struct{})
	}
	a.waiters++
	ch := a.ch
	return ch, func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		a.waiters--
		if a.waiters == 0 && a.ch == ch {
			a.ch = nil
		}
	}
}

// signal wakes the current watchers.
func (a *activity) signal() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ch != nil {
		close(a.ch)
		a.ch = nil
		if a.waiters > 0 {
			a.ch = make(chan struct{})
		}
	}
}

// MaxCheckWait bounds the wait of one check: every major MCP client gives
// up on a request after 60 s.
const MaxCheckWait = 55 * time.Second

// waitForNews waits, up to d, until the job has output it has not shown
// yet, its shell exits, its output ends, or ctx is done. It returns at
// once when there is already something new. The readers' writes wake it:
// there is no polling.
func (j *job) waitForNews(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	news, stop := j.news.watch()
	defer stop()
	if j.unseen() || isClosed(j.readersDone) && j.hasExited() {
		return
	}
	t := time.NewTimer(min(d, MaxCheckWait))
	defer t.Stop()
	select {
	case <-news:
	case <-j.exited:
	case <-j.readersDone:
		// The output ended; the shell's exit, its status, comes next
		// (or its children hold on without the pipes).
		select {
		case <-j.exited:
		case <-t.C:
		case <-ctx.Done():
		}
	case <-t.C:
	case <-ctx.Done():
	}
}

// unseen reports whether a stream has output since the last cut.
func (j *job) unseen() bool {
	for _, s := range j.streams() {
		s.mu.Lock()
		b, _ := s.pipe.Progress()
		shown := s.shown
		s.mu.Unlock()
		if b > shown {
			return true
		}
	}
	return false
}
