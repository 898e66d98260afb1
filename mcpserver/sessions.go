package mcpserver

import (
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/spillway-dev/spillway/internal/ops"
)

// A sessionTable holds the sessions of an HTTP server, keyed by MCP session
// id: one toolset each, ended on DELETE, after an idle timeout, or when the
// SDK closes the session.
type sessionTable struct {
	cfg  Config // how sessions make their toolsets
	idle time.Duration
	log  *slog.Logger
	// find returns the SDK's session of an id, or nil.
	find func(id string) *mcp.ServerSession

	// metrics count the sessions started and expired (nil: not counted).
	metrics *ops.Metrics
	// pagesBase is where the server serves the sessions' secret pages
	// (scheme://host:port).
	pagesBase string

	mu     sync.Mutex
	byID   map[string]*entry
	closed bool
}

type entry struct {
	*session
	ss *mcp.ServerSession
}

func newSessionTable(cfg Config, idle time.Duration, log *slog.Logger) *sessionTable {
	return &sessionTable{cfg: cfg, idle: idle, log: log, byID: map[string]*entry{},
		find: func(string) *mcp.ServerSession { return nil }}
}

// attach returns the session of ss, making it on first sight. An ended
// session stays in the table (so that it is not made again) until the SDK
// has closed it.
func (t *sessionTable) attach(ss *mcp.ServerSession) (*session, error) {
	id := ss.ID()
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.byID[id]; ok {
		return e.session, nil
	}
	if t.closed {
		return nil, errSessionEnded
	}
	e := &entry{session: newSession(id, t.cfg), ss: ss}
	e.pagesBase = t.pagesBase
	e.askRoots(ss)
	t.byID[id] = e
	t.log.Info("session started", "session", e.tag)
	if t.metrics != nil {
		t.metrics.SessionCreated()
	}
	e.mu.Lock()
	t.armIdleLocked(e)
	e.mu.Unlock()
	go func() {
		// However the SDK session ends, end ours with it.
		ss.Wait()
		t.forget(id)
	}()
	return e.session, nil
}

// request marks the start of an HTTP request of session id and returns the
// function that marks its end. The idle timer runs only while a session has
// no request in flight (a long call keeps its POST open). A session the SDK
// knows is attached here if it is not yet (a call may come before the
// initialized notification is handled); other ids are left to the SDK,
// which answers 404.
func (t *sessionTable) request(id string) (done func()) {
	e := t.entry(id)
	if e == nil {
		ss := t.find(id)
		if ss == nil {
			return func() {}
		}
		if _, err := t.attach(ss); err != nil {
			return func() {}
		}
		if e = t.entry(id); e == nil {
			return func() {}
		}
	}
	e.mu.Lock()
	e.active++
	if e.idle != nil {
		e.idle.Stop()
	}
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		e.active--
		if e.active == 0 && !e.ended {
			t.armIdleLocked(e)
		}
		e.mu.Unlock()
	}
}

// armIdleLocked (re)starts the idle timer of e; e.mu is held.
func (t *sessionTable) armIdleLocked(e *entry) {
	if t.idle <= 0 {
		return
	}
	if e.idle == nil {
		e.idle = time.AfterFunc(t.idle, func() { t.expire(e) })
		return
	}
	e.idle.Reset(t.idle)
}

// expire ends a session that has been idle too long, unless a request
// began as the timer fired.
func (t *sessionTable) expire(e *entry) {
	ended, err := e.endUnless(func() bool { return e.active > 0 })
	if !ended {
		return
	}
	t.log.Info("session idle: closed it", "session", e.tag, "idle", t.idle)
	if t.metrics != nil {
		t.metrics.SessionExpired()
	}
	if err != nil {
		t.log.Warn("closing session toolset", "session", e.tag, "error", err)
	}
	e.ss.Close()
}

// cancelCalls cancels the calls in flight of session id (on DELETE, before
// the SDK closes the session: it waits for them).
func (t *sessionTable) cancelCalls(id string) {
	e := t.entry(id)
	if e != nil {
		e.cancelCalls()
	}
}

// endID ends session id, if known.
func (t *sessionTable) endID(id string) {
	e := t.entry(id)
	if e != nil {
		t.end(e)
	}
}

// end ends e: its calls are cancelled, its toolset closed, and the SDK
// session closed.
func (t *sessionTable) end(e *entry) {
	if err := e.end(); err != nil {
		t.log.Warn("closing session toolset", "session", e.tag, "error", err)
	}
	e.ss.Close()
}

// forget ends session id and drops it from the table (the SDK has closed it).
func (t *sessionTable) forget(id string) {
	e := t.entry(id)
	if e == nil {
		return
	}
	if err := e.end(); err != nil {
		t.log.Warn("closing session toolset", "session", e.tag, "error", err)
	}
	// Dropped only once ended, so that endID (a DELETE) and closeAll (the
	// server's exit) find it and wait for its end: jobs killed, spill
	// directory removed. (The soak test saw a server exit while
	// a forgotten session was still removing its spill directory.)
	t.mu.Lock()
	if t.byID[id] == e {
		delete(t.byID, id)
	}
	t.mu.Unlock()
	t.log.Info("session ended", "session", e.tag)
}

// closeAll ends every session; no session can start afterwards.
func (t *sessionTable) closeAll() {
	t.mu.Lock()
	t.closed = true
	var all []*entry
	for _, e := range t.byID {
		all = append(all, e)
	}
	t.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range all {
		wg.Go(func() { t.end(e) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	// A session whose handler waits on its client (an elicitation the
	// client will never answer, the client gone) does not end when its
	// calls are cancelled: the SDK's wait for the answer takes no
	// context. The server exits anyway once the calls had their time.
	select {
	case <-done:
	case <-time.After(closeAllTimeout):
		t.log.Warn("exiting with sessions not closed: a handler still waits on its client", "timeout", closeAllTimeout)
	}
}

// closeAllTimeout bounds how long the server's exit waits for its
// sessions to close, past the time their calls get to end.
var closeAllTimeout = callDrainTimeout + 2*time.Second

// entry returns the entry of session id, or nil.
func (t *sessionTable) entry(id string) *entry {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.byID[id]
}

// all returns the sessions in the table now.
func (t *sessionTable) all() []*entry {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]*entry, 0, len(t.byID))
	for _, e := range t.byID {
		out = append(out, e)
	}
	return out
}

// has reports whether session id is in the table.
func (t *sessionTable) has(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.byID[id] != nil
}

// len returns the number of sessions.
func (t *sessionTable) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byID)
}
