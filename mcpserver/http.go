package mcpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/spillway-dev/spillway/internal/ops"
	"github.com/spillway-dev/spillway/internal/secret"
)

// Defaults of spillway serve.
const (
	// eventStoreBytes bounds the events kept for streams a client may
	// resume, all sessions together: results of a few hundred calls at the
	// 50,000-character budget.
	eventStoreBytes    = 32 << 20
	DefaultListen      = "127.0.0.1:7777"
	DefaultIdleTimeout = 30 * time.Minute
	// Path is where the MCP endpoint is served.
	Path = "/mcp"
)

// HTTPConfig configures the Streamable HTTP server.
type HTTPConfig struct {
	Config
	// Listen is the address to listen on (default DefaultListen).
	Listen string
	// Token, when set, is the bearer token every request must carry. It is
	// required to listen on an address that is not loopback.
	Token string
	// IdleTimeout ends a session (its calls cancelled, jobs killed, spill
	// directory removed) after this long without a request in flight.
	// Zero means DefaultIdleTimeout; negative, never.
	IdleTimeout time.Duration
	// AllowedOrigins are browser origins (scheme://host[:port]) accepted
	// besides the server's own (http://127.0.0.1:PORT, http://localhost:PORT
	// and http://[::1]:PORT, PORT being the one it listens on). Origins
	// compare exactly, as RFC 6454 defines their equality: scheme and host
	// without regard to case, the default port made explicit.
	AllowedOrigins []string
	// MaxSessions caps the sessions open at once (default
	// DefaultMaxSessions); a client that would open one more gets 503.
	// With each session's cap of 64 background jobs, it also caps the
	// jobs of the whole server.
	MaxSessions int
	// BodyTimeout bounds the time a request's body takes to arrive
	// (default 30 s).
	BodyTimeout time.Duration
	// MaxConnections caps the connections open at once; zero derives it
	// from the process's descriptor limit (half of it, leaving at least
	// 64 descriptors for the calls' own work). Past it the oldest
	// connection that has made no authorised request is closed.
	MaxConnections int
	// NodeID, when set, begins the id of every session ("NODE.RANDOM"):
	// a proxy in front of many servers sends a session's requests to the
	// node that holds it by the Mcp-Session-Id header alone
	// (docs/operations.md). See CheckNodeID.
	NodeID string
	// MetricsListen, when set, is a second address that serves /metrics
	// without the token (for a scraper on a private network); otherwise
	// /metrics is served beside /mcp, behind the token.
	MetricsListen string
	// AuditLog, when set, receives one JSON line per tool call
	// (docs/operations.md): no token, no session id, no environment or
	// input sent to a job.
	AuditLog io.Writer
	// DrainTimeout bounds a drain (Drain): how long the calls in flight
	// and the background jobs get to finish before they are ended. Zero
	// means DefaultDrainTimeout; negative, no wait.
	DrainTimeout time.Duration
}

// DefaultMaxSessions is the default cap on sessions open at once.
const DefaultMaxSessions = 64

// Timeouts of an HTTP request: its headers, then its body, must arrive
// within these (a slow client ties up a connection and a descriptor
// otherwise); and the largest body a request may have.
const (
	headerTimeout      = 5 * time.Second
	defaultBodyTimeout = 30 * time.Second
	maxBodyBytes       = 16 << 20
)

func (c HTTPConfig) bodyTimeout() time.Duration {
	if c.BodyTimeout <= 0 {
		return defaultBodyTimeout
	}
	return c.BodyTimeout
}

func (c HTTPConfig) maxSessions() int {
	if c.MaxSessions <= 0 {
		return DefaultMaxSessions
	}
	return c.MaxSessions
}

func (c HTTPConfig) drainTimeout() time.Duration {
	switch {
	case c.DrainTimeout == 0:
		return DefaultDrainTimeout
	case c.DrainTimeout < 0:
		return 0
	}
	return c.DrainTimeout
}

func (c HTTPConfig) idle() time.Duration {
	switch {
	case c.IdleTimeout == 0:
		return DefaultIdleTimeout
	case c.IdleTimeout < 0:
		return 0
	}
	return c.IdleTimeout
}

// An HTTPServer serves MCP over Streamable HTTP at /mcp: one toolset per
// MCP session.
type HTTPServer struct {
	cfg       HTTPConfig
	ln        net.Listener
	metricsLn net.Listener // nil without MetricsListen
	handler   *httpHandler
	sessions  *sessionTable
}

// ListenHTTP checks cfg and binds its address. A non-loopback address
// without a token is refused.
func ListenHTTP(cfg HTTPConfig) (*HTTPServer, error) {
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if err := CheckListen(cfg.Listen, cfg.Token); err != nil {
		return nil, err
	}
	for _, o := range cfg.AllowedOrigins {
		if _, ok := normalOrigin(o); !ok {
			return nil, fmt.Errorf("allowed origin %q: want scheme://host[:port], e.g. https://app.example.com", o)
		}
	}
	if cfg.NodeID != "" {
		if err := CheckNodeID(cfg.NodeID); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, err
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = defaultConnCap(cfg.maxSessions())
	}
	ln = newLimitListener(ln, cfg.MaxConnections, cfg.logger())
	var metricsLn net.Listener
	if cfg.MetricsListen != "" {
		if metricsLn, err = net.Listen("tcp", cfg.MetricsListen); err != nil {
			ln.Close()
			return nil, fmt.Errorf("metrics address: %w", err)
		}
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	cfg.AllowedOrigins = append(slices.Clone(cfg.AllowedOrigins), ownOrigins(port)...)
	h := newHTTPHandler(cfg)
	s := &HTTPServer{cfg: cfg, ln: ln, metricsLn: metricsLn, handler: h, sessions: h.sessions}
	// The secret pages of every session are served here, at the
	// address the server is reached at.
	h.sessions.pagesBase = strings.TrimSuffix(s.URL(), Path)
	return s, nil
}

// CheckListen refuses to listen on a non-loopback address without a bearer
// token: anyone who can reach the port could run commands.
func CheckListen(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("listen address %q: %v (want HOST:PORT, e.g. %s)", addr, err, DefaultListen)
	}
	if isLoopbackHost(host) || token != "" {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s without a bearer token: it is not a loopback address, "+
		"so anyone who can reach it could run commands. Set --token or SPILLWAY_TOKEN "+
		"(clients then send \"Authorization: Bearer <token>\"), or listen on 127.0.0.1", addr)
}

// URL returns the URL of the MCP endpoint. An unspecified address (all
// interfaces) is shown as the host given to Listen, e.g. 0.0.0.0.
func (s *HTTPServer) URL() string {
	host, port, _ := net.SplitHostPort(s.ln.Addr().String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host, _, _ = net.SplitHostPort(s.cfg.Listen)
		if host == "" {
			host = "0.0.0.0"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + Path
}

// MetricsURL returns the URL of the metrics: on the MetricsListen
// address when one is set, else beside the MCP endpoint.
func (s *HTTPServer) MetricsURL() string {
	if s.metricsLn == nil {
		return strings.TrimSuffix(s.URL(), Path) + "/metrics"
	}
	return "http://" + s.metricsLn.Addr().String() + "/metrics"
}

// Serve serves until ctx is cancelled, or a drain (Drain, POST /drain)
// has let the work in flight finish, then ends every session (calls
// cancelled, jobs killed, spill directories removed) and returns.
func (s *HTTPServer) Serve(ctx context.Context) error {
	log := s.cfg.logger()
	newServer := func(h http.Handler) *http.Server {
		return &http.Server{
			Handler:           h,
			ReadHeaderTimeout: headerTimeout,
			IdleTimeout:       2 * time.Minute,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
			// The connection, for the limit listener to learn which
			// connections have made an authorised request.
			ConnContext: func(ctx context.Context, c net.Conn) context.Context {
				return context.WithValue(ctx, connCtxKey{}, c)
			},
		}
	}
	srv := newServer(s.handler)
	served := make(chan error, 2)
	go func() { served <- srv.Serve(s.ln) }()
	var metricsSrv *http.Server
	if s.metricsLn != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", s.handler.metrics.Handler())
		metricsSrv = newServer(mux)
		go func() { served <- metricsSrv.Serve(s.metricsLn) }()
	}
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
	case <-s.handler.drainStarted:
		s.handler.waitDrained(ctx)
	}
	s.sessions.closeAll()
	shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if srv.Shutdown(shutdown) != nil {
		srv.Close() // streams still open: cut them
	}
	if metricsSrv != nil {
		metricsSrv.Close()
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// Drain starts a drain: readiness turns 503, a request for a new session
// gets 503 with Retry-After, and the sessions' calls in flight and
// background jobs get the drain timeout to finish; then Serve ends every
// session and returns nil.
func (s *HTTPServer) Drain() { s.handler.startDrain() }

// An httpHandler checks each request (Origin, bearer token), tracks the
// session it belongs to, and passes it on to the SDK's Streamable HTTP
// handler.
type httpHandler struct {
	cfg      HTTPConfig
	origins  map[string]bool // normalOrigin of each allowed origin
	admitted *admission      // the sessions --max-sessions counts
	sdk      http.Handler
	mux      *http.ServeMux // routes
	tools    *toolServer
	sessions *sessionTable
	log      *slog.Logger
	metrics  *ops.Metrics
	audit    *ops.Audit // nil without an audit log

	draining     atomic.Bool
	drainOnce    sync.Once
	drainStarted chan struct{} // closed when a drain starts
}

func newHTTPHandler(cfg HTTPConfig) *httpHandler {
	h := &httpHandler{cfg: cfg, log: cfg.logger(), origins: map[string]bool{}, drainStarted: make(chan struct{})}
	for _, o := range cfg.AllowedOrigins {
		if n, ok := normalOrigin(o); ok {
			h.origins[n] = true
		}
	}
	h.metrics = ops.NewMetrics(cfg.Version, cfg.NodeID, h.state)
	if cfg.AuditLog != nil {
		h.audit = ops.NewAudit(cfg.AuditLog)
	}
	h.sessions = newSessionTable(cfg.Config, cfg.idle(), h.log)
	h.sessions.metrics = h.metrics
	// A dropped connection is not a cancel (the spec versions spillway
	// speaks say so): the call goes on, its result is kept in the event
	// store for a client that resumes the stream (Last-Event-ID), and a
	// command still running backgrounds at its timeout, reachable with
	// check_pid. notifications/cancelled, DELETE and the idle timeout still
	// cancel.
	lookup := func(req *mcp.CallToolRequest) (*session, context.Context, error) {
		s, err := h.sessions.attach(req.Session)
		return s, nil, err
	}
	srv := newToolServer(cfg.Config, lookup, serverHooks{
		initialized: func(ss *mcp.ServerSession) { h.sessions.attach(ss) },
		sessionID:   sessionIDs(cfg.NodeID),
		observe:     h.observe,
	})
	srv.spillLinks = true
	h.tools = srv
	h.admitted = newAdmission(cfg.maxSessions(), srv.Sessions)
	h.sessions.find = func(id string) *mcp.ServerSession {
		for ss := range srv.Sessions() {
			if ss.ID() == id {
				return ss
			}
		}
		return nil
	}
	opts := &mcp.StreamableHTTPOptions{Logger: sdkLogger(h.log), EventStore: newEventStore(eventStoreBytes)}
	if idle := cfg.idle(); idle > 0 {
		// A backstop for sessions that never initialized (and so never
		// reached the table); the table's own timer ends the others first.
		opts.SessionTimeout = idle + time.Minute
	}
	h.sdk = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.Server }, opts)
	h.mux = h.routes()
	return h
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mux.ServeHTTP(w, r)
}

// routes is serve's table of paths: MCP at Path, the probes, the
// operator's endpoints and the secret pages; anything else is a 404 that
// names Path. Each path that takes only some methods is registered twice:
// with its methods, and bare for the rest, which are answered 405 with
// Allow and what to use (a bare catch-all would otherwise take them).
func (h *httpHandler) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc(Path, h.serveMCP)
	mux.HandleFunc(secret.PathPrefix, h.servePage)
	// No token on the probes: a probe has none, and the answer is only
	// the state.
	for _, p := range []string{healthPath, readyPath} {
		mux.HandleFunc("GET "+p, h.probe)
		mux.HandleFunc(p, methodNotAllowed("GET, HEAD", "use GET"))
	}
	if h.cfg.MetricsListen == "" {
		mux.HandleFunc("GET "+metricsPath, h.withToken(h.metrics.Handler().ServeHTTP))
		mux.HandleFunc(metricsPath, methodNotAllowed("GET, HEAD", "use GET, with the token"))
	} else {
		mux.HandleFunc(metricsPath, notFound("the metrics are served at --metrics-listen"))
	}
	mux.HandleFunc("POST "+drainPath, h.withToken(h.drain))
	mux.HandleFunc(drainPath, methodNotAllowed("POST", "use POST, with the token"))
	mux.HandleFunc("/", notFound("spillway serves MCP at "+Path))
	return mux
}

// withToken serves next only to a request that passes authorized.
func (h *httpHandler) withToken(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if h.authorized(w, r) {
			next(w, r)
		}
	}
}

// methodNotAllowed answers 405 with the methods a path takes.
func methodNotAllowed(allow, what string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		http.Error(w, "Method Not Allowed: "+what, http.StatusMethodNotAllowed)
	}
}

// notFound answers 404 with where to look instead.
func notFound(instead string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Not found: "+instead, http.StatusNotFound)
	}
}

// serveMCP serves Path: the MCP transport, behind the token.
func (h *httpHandler) serveMCP(w http.ResponseWriter, r *http.Request) {
	if !h.authorized(w, r) {
		return
	}
	// A connection that passed is never closed to make room for another
	// (see limitListener); one that has not is, oldest first.
	authoriseConn(r.Context())

	var body []byte
	if r.Method == http.MethodPost {
		var ok bool
		if body, ok = h.readBody(w, r); !ok {
			return
		}
	}
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" && r.Method == http.MethodPost && h.draining.Load() {
		// A client that retries after a moment reaches another node
		// through the proxy, which has seen this one turn unready.
		w.Header().Set("Retry-After", strconv.Itoa(drainRetryAfter))
		http.Error(w, "Service Unavailable: this server is draining (shutting down) and starts no new session; try again (another node, behind a proxy)", http.StatusServiceUnavailable)
		return
	}
	if id == "" && r.Method == http.MethodPost {
		// The SDK names the session it kept in the answer's header.
		if mayStartSession(body) {
			if !h.admitted.enter() {
				h.log.Warn("request refused: too many sessions", "max", h.cfg.maxSessions(), "remote", r.RemoteAddr)
				http.Error(w, fmt.Sprintf("Service Unavailable: this server already has %d sessions open, its cap (--max-sessions); end one (DELETE, or let it idle out) and try again", h.cfg.maxSessions()), http.StatusServiceUnavailable)
				return
			}
			defer func() { h.admitted.leave(w.Header().Get("Mcp-Session-Id")) }()
		} else {
			defer func() {
				if id := w.Header().Get("Mcp-Session-Id"); id != "" && !h.admitted.adopt(id) {
					h.log.Warn("session closed: started past the cap by a request not read as an initialize", "max", h.cfg.maxSessions(), "remote", r.RemoteAddr)
				}
			}()
		}
	}
	if id != "" {
		defer h.sessions.request(id)()
	}
	if r.Method == http.MethodDelete && id != "" {
		// The SDK waits for the session's calls before it closes it:
		// cancel them first, then end the session.
		h.sessions.cancelCalls(id)
		h.sdk.ServeHTTP(w, r)
		h.sessions.endID(id)
		return
	}
	h.sdk.ServeHTTP(w, r)
}

// authorized checks the Origin and the bearer token of r, and answers it
// when they are not right.
func (h *httpHandler) authorized(w http.ResponseWriter, r *http.Request) bool {
	if origin := r.Header.Get("Origin"); !originAllowed(origin, h.origins) {
		h.log.Warn("request refused: origin not allowed", "origin", quote(origin), "remote", r.RemoteAddr)
		http.Error(w, fmt.Sprintf("Forbidden: origin %s is not allowed (only the server's own origin, and those given with --allow-origin)", quote(origin)), http.StatusForbidden)
		return false
	}
	if h.cfg.Token != "" && !bearerOK(r.Header.Get("Authorization"), h.cfg.Token) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="spillway"`)
		http.Error(w, "Unauthorized: send \"Authorization: Bearer <token>\" with the server's token", http.StatusUnauthorized)
		return false
	}
	return true
}

// readBody reads the whole body of r within the body timeout and at most
// maxBodyBytes, so that a client that sends it slowly (or endlessly) does
// not hold a connection; the handlers then read it from memory. The
// connection's deadline is lifted afterwards: a call may run, and its
// response stream, for long.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(h.cfg.bodyTimeout()))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		// The deadline stays: the server must not wait for the rest of
		// the body before it answers and closes the connection.
		w.Header().Set("Connection", "close")
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, fmt.Sprintf("Request Entity Too Large: a request body may hold %d bytes at most", maxBodyBytes), http.StatusRequestEntityTooLarge)
		} else {
			h.log.Warn("request refused: body not read", "err", err, "remote", r.RemoteAddr)
			http.Error(w, fmt.Sprintf("Request Timeout: the body did not arrive within %v", h.cfg.bodyTimeout()), http.StatusRequestTimeout)
		}
		return nil, false
	}
	rc.SetReadDeadline(time.Time{})
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, true
}

// originAllowed accepts requests without an Origin (clients that are not
// browsers) and the allowed origins (normalized), exactly. Any other
// origin is a web page trying to reach the server (DNS rebinding, CSRF):
// another port of localhost is another origin, maybe a dev server the
// agent itself started.
func originAllowed(origin string, allowed map[string]bool) bool {
	if origin == "" {
		return true
	}
	n, ok := normalOrigin(origin)
	return ok && allowed[n]
}

// normalOrigin writes an origin the way RFC 6454 compares it: scheme and
// host lowercased, the port explicit. Only http and https origins with a
// host and nothing after it are origins here.
func normalOrigin(origin string) (string, bool) {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	switch {
	case scheme != "http" && scheme != "https":
		return "", false
	case port == "" && scheme == "http":
		port = "80"
	case port == "":
		port = "443"
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port), true
}

// ownOrigins are the origins of a page served from this server's own
// loopback address and port.
func ownOrigins(port string) []string {
	var out []string
	for _, host := range []string{"127.0.0.1", "localhost", "[::1]"} {
		out = append(out, "http://"+host+":"+port)
	}
	return out
}

// quote quotes s for a log or an error, cut to 200 bytes: a header may be
// long.
func quote(s string) string {
	if len(s) > 200 {
		return strconv.Quote(s[:200]) + "…"
	}
	return strconv.Quote(s)
}

func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func bearerOK(header, token string) bool {
	scheme, value, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(value)), []byte(token)) == 1
}
