package mcpserver

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/console"
)

// callDrainTimeout bounds how long ending a session waits for its cancelled
// calls to return. A cancelled bash call of a closing session returns
// within about a second (SIGTERM, then SIGKILL).
const callDrainTimeout = 5 * time.Second

// errSessionEnded is the error of a call that arrives after its session
// ended.
var errSessionEnded = errors.New("this MCP session has ended: reconnect to start a new one")

// A session is one MCP session: its toolset (made on first use), and a
// context that every call of the session derives from, so that ending the
// session cancels the calls in flight (their process groups are killed).
type session struct {
	id         string
	tag        string // names the session in the logs (sessionTag)
	newToolset func(Client) (*spillway.Toolset, error)
	// newToolsetIn and rootsOnly are Config's NewToolsetIn and RootsOnly.
	newToolsetIn func(dir string, c Client) (*spillway.Toolset, error)
	rootsOnly    bool
	log          *slog.Logger
	// console, when set, shows the session on the person's console.
	console *console.Hub
	// pagesBase, when set, is where the server serves the toolset's
	// secret pages; without it the toolset serves them itself.
	pagesBase string
	// roots, when set, is the client's answer to the roots asked for when
	// the session began (askRoots); without it the first call asks.
	// Guarded by mu.
	roots *rootsAnswer

	ctx    context.Context // cancelled when the session ends
	cancel context.CancelFunc
	calls  sync.WaitGroup

	mu    sync.Mutex
	ts    *spillway.Toolset
	ended bool
	done  chan struct{} // closed when end has finished

	// Idle tracking, for HTTP sessions (guarded by mu).
	active int
	idle   *time.Timer
}

func newSession(id string, cfg Config) *session {
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{id: id, tag: sessionTag(id), newToolset: cfg.NewToolset, newToolsetIn: cfg.NewToolsetIn, rootsOnly: cfg.RootsOnly,
		log: cfg.logger(), ctx: ctx, cancel: cancel, done: make(chan struct{}), console: cfg.Console}
	if s.console != nil {
		// A stdio server has one session, whose id is empty, so its tag
		// is the same in every server: the console names it by its
		// transport, under the heading of its server (pid, directory).
		label := s.tag
		if id == "" {
			label = "over stdio"
		}
		s.console.AddSession(console.SessionInfo{ID: s.tag, Label: label, Source: consoleSource{s}})
	}
	return s
}

// askRoots asks the client of ss for its roots as the session begins
// (the table attaches it), when the server takes them and no call has
// made the toolset yet.
func (s *session) askRoots(ss *mcp.ServerSession) {
	if s.newToolsetIn == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.roots == nil && s.ts == nil && !s.ended {
		s.roots = pendingRoots(ss)
	}
}

// toolset makes the session's toolset for its client peer: in the first
// root the client of ss offers, when the server takes roots
// (NewToolsetIn), else as NewToolset does.
func (s *session) toolset(ctx context.Context, ss *mcp.ServerSession, peer Client) (*spillway.Toolset, error) {
	if s.newToolsetIn == nil {
		return s.newToolset(peer)
	}
	var dir string
	var err error
	switch {
	case s.roots == nil:
		dir, err = clientRoot(ctx, ss)
	case s.rootsOnly:
		dir, err = s.roots.wait(ctx, rootsTimeout)
	default:
		dir, err = s.roots.wait(ctx, rootsFirstCallWait)
	}
	if err != nil {
		s.log.Warn("no client roots", "session", s.tag, "error", err)
	}
	switch {
	case dir != "":
		s.log.Info("session starts in the client's root", "session", s.tag, "dir", dir)
		return s.newToolsetIn(dir, peer)
	case s.rootsOnly:
		return nil, errNoRoots
	}
	return s.newToolset(peer)
}

// begin starts a call: it returns the session's toolset (made on the
// session's first call, for peer, the client that made it) and a context
// that is cancelled when ctx is, when client (if not nil) is, or when the
// session ends. finish must be called when the call returns.
func (s *session) begin(ctx, client context.Context, ss *mcp.ServerSession, peer Client) (ts *spillway.Toolset, callCtx context.Context, finish func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return nil, nil, nil, errSessionEnded
	}
	if s.ts == nil {
		ts, err := s.toolset(ctx, ss, peer)
		if err != nil {
			return nil, nil, nil, err
		}
		if s.pagesBase != "" {
			ts.SecretPages().ServeAt(s.pagesBase)
		}
		s.ts = ts
	}
	s.calls.Add(1)
	callCtx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.ctx, cancel)
	stopClient := func() bool { return false }
	if client != nil {
		stopClient = context.AfterFunc(client, cancel)
	}
	return s.ts, callCtx, func() {
		stop()
		stopClient()
		cancel()
		s.calls.Done()
	}, nil
}

// end ends the session: the calls in flight are cancelled (their process
// groups killed), then the toolset is closed (background jobs killed, spill
// directory removed). It returns once all that is done; later calls wait
// for the first to finish.
func (s *session) end() error {
	_, err := s.endUnless(nil)
	return err
}

// endUnless ends the session unless busy, called with s.mu held, says it
// is busy: checking and ending under one lock, a request that starts as an
// idle timer fires either keeps the session or finds it ended, never a
// session ending under it. It reports whether this call ended it.
func (s *session) endUnless(busy func() bool) (bool, error) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		<-s.done
		return false, nil
	}
	if busy != nil && busy() {
		s.mu.Unlock()
		return false, nil
	}
	s.ended = true
	if s.console != nil {
		s.console.RemoveSession(s.tag)
	}
	if s.idle != nil {
		s.idle.Stop()
	}
	ts := s.ts
	s.mu.Unlock()
	defer close(s.done)

	// The toolset is closed at once, beside the cancelled calls: its jobs
	// — a call's command among them — are killed without the full grace
	// a cancel gives, so that a server told to stop is gone within two
	// seconds whatever its commands do with SIGTERM.
	s.cancel()
	var closeErr error
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		if ts != nil {
			closeErr = ts.Close()
		}
	}()
	drained := make(chan struct{})
	go func() { s.calls.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(callDrainTimeout):
	}
	<-closed
	return true, closeErr
}

// current returns the session's toolset, nil before its first call.
func (s *session) current() *spillway.Toolset {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ts
}

// cancelCalls cancels the calls in flight without ending the session's
// bookkeeping; end must still be called.
func (s *session) cancelCalls() { s.cancel() }
