// Package mcpserver serves spillway's tools over the Model Context Protocol,
// on the official Go SDK: over stdio (one session for the life of the
// process) and over Streamable HTTP (one toolset per MCP session, isolated,
// ended on DELETE or after an idle timeout).
//
// Every tool result carries the text the model reads as text content (and
// nothing else a client would show instead of it), the tool's details under
// _meta (DetailsMetaKey), and isError; read of an image returns image
// content. Typed results, an option, add an outputSchema and a
// structuredContent holding the text and the details. A bash call reports
// notifications/progress when the client gave a progress token, and is
// cancelled (its process group killed) by notifications/cancelled, by its
// client going away, and by the end of its session.
package mcpserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/console"
	"github.com/spillway-dev/spillway/internal/ops"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/schema"
)

// exitGrace bounds how long a stdio server that was told to stop (stdin
// closed, a signal) waits for its calls and its session to end: what is
// still running then is left, so that the process exits within two
// seconds.
const exitGrace = 1500 * time.Millisecond

// Config configures the MCP server of one process.
type Config struct {
	// NewToolset makes the toolset of a new session, on its first call, for
	// the client that made it: Client.Fit gives the policy that fits what
	// that client shows the model.
	NewToolset func(Client) (*spillway.Toolset, error)
	// NewToolsetIn, when set, makes the toolset of a session whose client
	// offers roots (roots/list): it starts in dir, the first root that is
	// a local directory. Set it when no --root is given; a client without
	// roots gets NewToolset's.
	NewToolsetIn func(dir string, c Client) (*spillway.Toolset, error)
	// RootsOnly refuses the calls of a client that offers no root
	// (--root roots: the roots are the confinement).
	RootsOnly bool
	// Policy is what the toolsets apply; the tool descriptions state its
	// limits and its format renders the results. nil means
	// spillway.DefaultPolicy().
	Policy *spillway.Policy
	// Format is how the toolsets write results (the Options.Format of
	// NewToolset's toolsets): the server writes the errors of calls that
	// could not be made the same way.
	Format spillway.Format
	// Version is the server version reported to clients.
	Version string
	// Logger receives the server's log (never stdout). nil discards it.
	Logger *slog.Logger
	// TypedResults gives the tools an outputSchema and their results a
	// structuredContent of {"text", "details"}. Off by default: Claude
	// Code, Codex, opencode and VS Code then show the model only that JSON.
	TypedResults bool
	// Console, when set, shows the sessions, their questions and jobs
	// to the person's console (spillway console), where the person can
	// answer what a client cannot ask.
	Console *console.Hub
}

func (c Config) policy() spillway.Policy {
	if c.Policy == nil {
		return spillway.DefaultPolicy()
	}
	return *c.Policy
}

func (c Config) logger() *slog.Logger {
	if c.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Logger
}

// instructions tell the model what the server is for. The tools are named
// from the table, so that none is left out. (A function, not a variable:
// the summary walks the table, which every CLI call would pay for at
// start.)
func instructions() string {
	return "spillway has " + schema.Summary() + ". Their results always fit: " +
		`whatever does not fit is cut, the cut is stated in a bracketed notice, and the whole output is kept in a file ` +
		`the notice names. Page through that file with read, search it with grep, or process it with bash, ` +
		`rather than running a command again. Long commands move to the background instead of being killed: ` +
		`poll them with bash check_pid and stop them with kill_pid.`
}

// A toolServer is an mcp.Server with spillway's tools, and the way its
// handlers find the session of a call.
type toolServer struct {
	*mcp.Server
	log *slog.Logger
	// typed is Config.TypedResults.
	typed bool
	// spillLinks adds resource_link blocks for the spill files of a cut
	// result. Only over HTTP, whose client may not share the server's
	// file system: a stdio client does, the notice names the file, and
	// the clients show a link to the model as more text (Codex: its JSON)
	// or count the result as JSON (Claude Code), out of the budget.
	spillLinks bool
	// session returns the session of a call, and a context that ends when
	// the call's client goes away (nil when the transport cannot tell).
	session func(*mcp.CallToolRequest) (*session, context.Context, error)
	// format renders the errors of failed calls as the results are.
	format spillway.Format
	// observe, if not nil, learns of every call answered (metrics, the
	// audit log).
	observe func(ops.Call)
	// console is Config.Console.
	console *console.Hub
	// inFlight counts the calls being answered.
	inFlight atomic.Int64
}

// serverHooks are what the HTTP server adds to a toolServer; the stdio
// server has none.
type serverHooks struct {
	// initialized is called when a client session has initialized.
	initialized func(*mcp.ServerSession)
	// sessionID makes the id of a new session (nil: the SDK's).
	sessionID func() string
	// observe is toolServer.observe.
	observe func(ops.Call)
}

// failed is the result of a call that could not be made: its error, as
// one line of text (or a JSON envelope), with isError.
func (s *toolServer) failed(err error) *mcp.CallToolResult {
	if s.format == spillway.FormatJSON {
		return errorResult(errors.New(render.ErrorEnvelope(err.Error())))
	}
	return errorResult(err)
}

// newToolServer makes the mcp.Server.
func newToolServer(cfg Config, lookup func(*mcp.CallToolRequest) (*session, context.Context, error), hooks serverHooks) *toolServer {
	opts := &mcp.ServerOptions{
		Instructions: instructions(),
		Logger:       sdkLogger(cfg.logger()),
		Capabilities: &mcp.ServerCapabilities{
			Tools: &mcp.ToolCapabilities{}, // the list never changes
			// The SDK answers logging/setLevel; spillway sends no log
			// messages of its own. Clients of the protocol versions
			// before 2026-07-28 still ask for it.
			//lint:ignore SA1019 kept for the clients that still set a level
			Logging: &mcp.LoggingCapabilities{},
			// The session's spill files, read by URI (resources.go).
			Resources: &mcp.ResourceCapabilities{},
		},
	}
	if hooks.initialized != nil {
		opts.InitializedHandler = func(_ context.Context, req *mcp.InitializedRequest) { hooks.initialized(req.Session) }
	}
	opts.GetSessionID = hooks.sessionID
	s := &toolServer{
		Server: mcp.NewServer(&mcp.Implementation{
			Name:    "spillway",
			Title:   "spillway: agent tools whose results always fit",
			Version: cfg.Version,
		}, opts),
		log:     cfg.logger(),
		typed:   cfg.TypedResults,
		session: lookup,
		format:  cfg.Format,
		observe: hooks.observe,
		console: cfg.Console,
	}
	for _, t := range schema.Tools(cfg.policy()) {
		addTool(s, t)
	}
	addSpillResources(s)
	return s
}

// ServeStdio serves one MCP session over r and w (stdin and stdout) until r
// ends or ctx is cancelled. Nothing but JSON-RPC is written to w. When it
// returns, the session's calls have been cancelled, its background jobs
// killed and its spill directory removed.
func ServeStdio(ctx context.Context, cfg Config, r io.Reader, w io.Writer) error {
	sess := newSession("stdio", cfg)
	srv := newToolServer(cfg, func(*mcp.CallToolRequest) (*session, context.Context, error) { return sess, nil, nil }, serverHooks{})
	// The client going away (stdin closed) or a signal ends the session at
	// once: the calls in flight are cancelled, the jobs killed and the
	// spill directory removed, while the SDK waits for the calls.
	ending := make(chan struct{})
	var endOnce sync.Once
	var deadline <-chan time.Time
	endNow := func() {
		endOnce.Do(func() {
			deadline = time.After(exitGrace)
			close(ending)
			go sess.end()
		})
	}
	stop := context.AfterFunc(ctx, endNow)
	defer stop()
	t := &lineTransport{r: r, w: w, onEOF: endNow, log: cfg.logger()}
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx, t) }()
	var err error
	select {
	case err = <-ran:
	case <-ending:
		// A call that does not return (what could block it is made not
		// to) must not keep the process: it gets until exitGrace.
		select {
		case err = <-ran:
		case <-deadline:
			cfg.logger().Warn("calls still running at exit; leaving them")
			err = nil
		}
	}
	endNow() // when Run ended by itself
	ended := make(chan error, 1)
	go func() { ended <- sess.end() }()
	select {
	case cerr := <-ended:
		if cerr != nil {
			cfg.logger().Warn("closing the toolset", "error", cerr)
		}
	case <-deadline:
		cfg.logger().Warn("the session did not end in time; exiting all the same")
	}
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) {
		// A signal, or the client hung up (closing stdin, or stdout
		// while an answer was on its way): a normal end.
		return nil
	}
	return err
}

// Under MCP a call must return before the client gives up on it: the
// TypeScript SDK's client after 60 s (DEFAULT_REQUEST_TIMEOUT_MSEC), Codex
// after its tool_timeout_sec (60). A command still running then moves to
// the background with its output so far instead of being cancelled with
// the abandoned request.
const (
	// DefaultTimeout is the default bash timeout of spillway mcp and
	// serve (the CLI and the library keep 120 s).
	DefaultTimeout = 50 * time.Second
	// MaxWait bounds a call's timeout and check_pid's wait
	// (spillway.Policy.MaxWait), unless the server's default timeout
	// (timeout_ms) is longer: whoever set it knows their client waits
	// longer.
	MaxWait = 55 * time.Second
)
