package mcpserver

import (
	"container/list"
	"context"
	"errors"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"
)

// The connections of serve are capped: each holds a descriptor, and a
// client without the token could otherwise open connections until the
// process has none left, so that an authorised call could neither be
// accepted nor run its command (a pipe, a spill file). The cap leaves
// descriptors for that work, and a connection that has not yet made an
// authorised request is closed, oldest first, to make room for a new one:
// a flood of idle connections without the token cannot keep an
// authorised client out.

// connReserve is how many descriptors, at least, are held back from
// connections for the work of authorised calls.
const connReserve = 64

// SessionDescriptors is the descriptors one session of serve holds while
// it runs a job, beside its connection: the read ends of the job's two
// pipes and the pidfd through which the shell is waited for (measured by
// TestSessionDescriptors and bench/fleet -scenario jobs). A job that
// also has an input pipe or a terminal holds one more, and one whose
// output has spilled holds its spill files (one a stream) until it ends.
const SessionDescriptors = 3

// DescriptorsFor is the descriptor limit (ulimit -n) a serve process needs
// to hold maxSessions sessions, each running a job: the sessions'
// descriptors, a connection beside each, and connReserve.
func DescriptorsFor(maxSessions int) uint64 {
	return uint64(maxSessions)*(SessionDescriptors+1) + connReserve
}

// SessionsFor is how many sessions, each running a job, a descriptor
// limit of nofile holds: the inverse of DescriptorsFor.
func SessionsFor(nofile uint64) int {
	if nofile <= connReserve {
		return 0
	}
	return int((nofile - connReserve) / (SessionDescriptors + 1))
}

// connCapFor returns the connection cap for a process that may hold
// nofile descriptors and maxSessions sessions: half of them at most, and
// of the rest what the sessions' jobs and connReserve leave, but never
// fewer than one a session (nor than 8). The sessions' own descriptors
// are not connections: a cap of half the limit let connections take what
// the jobs needed, and at 20,000 descriptors new connections failed from
// 3,400 open.
func connCapFor(nofile uint64, maxSessions int) int {
	half := min(nofile/2, 1<<16)
	var left uint64
	if need := uint64(maxSessions)*SessionDescriptors + connReserve; nofile > need {
		left = nofile - need
	}
	return max(int(min(half, max(left, uint64(maxSessions)))), 8)
}

// acceptBackoffMax bounds the wait between accepts while the process has
// no descriptor left and no connection to close.
const acceptBackoffMax = time.Second

// connCtxKey is the context key of a request's *limitedConn.
type connCtxKey struct{}

// A limitListener holds at most max connections open.
type limitListener struct {
	net.Listener
	max int
	log *slog.Logger

	mu       sync.Mutex
	open     int
	pending  list.List // of *limitedConn with no authorised request yet, oldest first
	closed   int       // connections closed to make room, since the last log
	loggedAt time.Time
}

func newLimitListener(ln net.Listener, max int, log *slog.Logger) *limitListener {
	return &limitListener{Listener: ln, max: max, log: log}
}

// Accept accepts the next connection. Past the cap it closes the oldest
// connection that has made no authorised request (the new one, if every
// other has). Out of descriptors, it closes such a connection to get one,
// or waits, never spinning.
func (l *limitListener) Accept() (net.Conn, error) {
	wait := 5 * time.Millisecond
	for {
		c, err := l.Listener.Accept()
		if err == nil {
			return l.track(c), nil
		}
		if !errors.Is(err, syscall.EMFILE) && !errors.Is(err, syscall.ENFILE) {
			return nil, err
		}
		if l.closeOldest("out of descriptors (raise ulimit -n: see docs/operations.md)") {
			continue
		}
		time.Sleep(wait)
		wait = min(2*wait, acceptBackoffMax)
	}
}

func (l *limitListener) track(c net.Conn) *limitedConn {
	lc := &limitedConn{Conn: c, l: l}
	l.mu.Lock()
	l.open++
	lc.pending = l.pending.PushBack(lc)
	over := l.open > l.max
	l.mu.Unlock()
	if over {
		l.closeOldest("connections at their cap")
	}
	return lc
}

// closeOldest closes the oldest connection that has made no authorised
// request, and reports whether there was one; why is the reason logged.
func (l *limitListener) closeOldest(why string) bool {
	l.mu.Lock()
	if l.pending.Len() == 0 {
		l.mu.Unlock()
		return false
	}
	c := l.pending.Front().Value.(*limitedConn)
	l.dropPendingLocked(c) // another Accept must not pick it too
	l.closed++
	if now := time.Now(); now.Sub(l.loggedAt) >= time.Minute {
		l.log.Warn(why+": closed the oldest connection without an authorised request", "cap", l.max, "open", l.open, "closed", l.closed)
		l.loggedAt, l.closed = now, 0
	}
	l.mu.Unlock()
	c.Close()
	return true
}

// A limitedConn is a connection a limitListener counts.
type limitedConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
	// pending is its element in l.pending until it makes an authorised
	// request or is closed; guarded by l.mu.
	pending *list.Element
}

// authorise marks the connection as one that made an authorised request:
// it is never closed to make room.
func (c *limitedConn) authorise() {
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	c.l.dropPendingLocked(c)
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		defer c.l.mu.Unlock()
		c.l.open--
		c.l.dropPendingLocked(c)
	})
	return err
}

func (l *limitListener) dropPendingLocked(c *limitedConn) {
	if c.pending != nil {
		l.pending.Remove(c.pending)
		c.pending = nil
	}
}

// authoriseConn marks the connection of a request that passed the checks
// (origin, token).
func authoriseConn(ctx context.Context) {
	if c, ok := ctx.Value(connCtxKey{}).(*limitedConn); ok {
		c.authorise()
	}
}
