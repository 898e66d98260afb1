package console

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/internal/secret"
)

//go:embed assets
var assets embed.FS

//go:embed templates
var templates embed.FS

// Headers of the page's requests.
const (
	linkHeader  = "X-Spillway-Link"  // the one-time link's code, once
	loginHeader = "X-Spillway-Login" // the login, on every request
	csrfHeader  = "X-Spillway-Csrf"  // the login's action token, on every action
)

// A Console serves the person's page on 127.0.0.1: the servers found in
// its directory, their questions, jobs and history. It is what spillway
// console runs.
type Console struct {
	dir        string
	credential string // presented to a serve (its sessions only)
	log        *slog.Logger

	host string // 127.0.0.1:PORT, the only Host accepted
	srv  *http.Server

	mu     sync.Mutex
	code   string            // the one-time link's code; "" once used
	used   chan struct{}     // closed when the code is traded
	logins map[string]string // login → its action token
}

// NewConsole returns a console of the servers whose sockets are in dir.
// credential, when set, is what a serve's sessions were opened with.
func NewConsole(dir, credential string, log *slog.Logger) *Console {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Console{dir: dir, credential: credential, log: log, code: secretText(), used: make(chan struct{}), logins: map[string]string{}}
}

// Used is closed once the one-time link has been traded for a login.
func (c *Console) Used() <-chan struct{} { return c.used }

// Listen starts serving on a free port of 127.0.0.1 and returns the
// one-time link. The page is served until ctx ends.
func (c *Console) Listen(ctx context.Context) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("cannot serve the console on 127.0.0.1: %w", err)
	}
	c.host = ln.Addr().String()
	c.srv = &http.Server{Handler: c, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx },
		ErrorLog:    slog.NewLogLogger(c.log.Handler(), slog.LevelDebug)}
	go c.srv.Serve(ln)
	context.AfterFunc(ctx, func() { c.srv.Close() })
	return "http://" + c.host + "/#" + c.code, nil
}

// Origin is the page's origin.
func (c *Console) Origin() string { return "http://" + c.host }

// secretText is 256 random bits, base64url.
func secretText() string {
	var b [32]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// ServeHTTP serves the page: the shell and its script to anyone on
// loopback (they hold nothing), everything else only to a login.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self'; font-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")
	// A name that resolves to 127.0.0.1 (DNS rebinding) is another
	// origin: only the address itself is served.
	if r.Host != c.host {
		http.Error(w, "Misdirected request: the console answers only at "+c.Origin(), http.StatusMisdirectedRequest)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && o != c.Origin() {
		c.log.Warn("console: a request from another origin was refused", "origin", o)
		http.Error(w, "Forbidden: a request from another origin", http.StatusForbidden)
		return
	}
	// The shell holds nothing, and spillway console opens it from a
	// file:// page (the link is on no command line), a navigation the
	// browser calls cross-site: a top-level navigation to it is served.
	shellNavigation := r.URL.Path == "/" && r.Method == http.MethodGet && r.Header.Get("Sec-Fetch-Mode") == "navigate"
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" && s != "none" && !shellNavigation {
		http.Error(w, "Forbidden: a request from another site", http.StatusForbidden)
		return
	}
	switch {
	case r.URL.Path == "/" && r.Method == http.MethodGet:
		c.shell(w)
	case strings.HasPrefix(r.URL.Path, "/assets/") && r.Method == http.MethodGet:
		c.asset(w, r)
	case r.URL.Path == "/api/login" && r.Method == http.MethodPost:
		c.login(w, r)
	case strings.HasPrefix(r.URL.Path, "/api/"):
		csrf, ok := c.loggedIn(r)
		if !ok {
			http.Error(w, "Unauthorized: open the link spillway console prints", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodGet && subtle.ConstantTimeCompare([]byte(r.Header.Get(csrfHeader)), []byte(csrf)) != 1 {
			http.Error(w, "Forbidden: the action lacks the page's token", http.StatusForbidden)
			return
		}
		c.api(w, r, csrf)
	default:
		http.NotFound(w, r)
	}
}

// loggedIn reports whether r carries a login, and its action token.
func (c *Console) loggedIn(r *http.Request) (string, bool) {
	got := r.Header.Get(loginHeader)
	if got == "" {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for l, csrf := range c.logins {
		if subtle.ConstantTimeCompare([]byte(l), []byte(got)) == 1 {
			return csrf, true
		}
	}
	return "", false
}

// login trades the link's code, once, for a login and its action token.
func (c *Console) login(w http.ResponseWriter, r *http.Request) {
	got := r.Header.Get(linkHeader)
	c.mu.Lock()
	ok := c.code != "" && got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(c.code)) == 1
	var login, csrf string
	if ok {
		c.code = ""
		close(c.used)
		login, csrf = secretText(), secretText()
		c.logins[login] = csrf
	}
	c.mu.Unlock()
	if !ok {
		c.log.Warn("console: a used or wrong link was refused", "remote", r.RemoteAddr)
		http.Error(w, "This link was already used (or is not this console's). Run spillway console again for a new one.", http.StatusForbidden)
		return
	}
	c.log.Info("console: logged in")
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"login": login, "csrf": csrf})
}

func (c *Console) shell(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	b, _ := assets.ReadFile("assets/console.html")
	w.Write(b)
}

func (c *Console) asset(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	b, err := assets.ReadFile(name)
	if err != nil || strings.Contains(name, "..") {
		http.NotFound(w, r)
		return
	}
	switch {
	case strings.HasSuffix(name, ".js"):
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case strings.HasSuffix(name, ".css"):
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	default:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.Write(b)
}

// api serves a login's requests.
func (c *Console) api(w http.ResponseWriter, r *http.Request, csrf string) {
	switch {
	case r.URL.Path == "/api/view" && r.Method == http.MethodGet:
		c.view(w, r, csrf)
	case r.URL.Path == "/api/events" && r.Method == http.MethodGet:
		c.events(w, r)
	case r.URL.Path == "/api/answer" && r.Method == http.MethodPost:
		c.relayAnswer(w, r)
	case r.URL.Path == "/api/secret" && r.Method == http.MethodPost:
		c.relaySecret(w, r)
	case r.URL.Path == "/api/term" && r.Method == http.MethodGet:
		c.relayTerm(w, r)
	case r.URL.Path == "/api/term/input" && r.Method == http.MethodPost:
		c.relayTermInput(w, r)
	default:
		http.NotFound(w, r)
	}
}

// A serverView is one server on the page.
type serverView struct {
	Found
	State State
	Err   string
}

// states asks every server found for its state.
func (c *Console) states(ctx context.Context) []serverView {
	found, err := Discover(c.dir)
	if err != nil {
		return nil
	}
	out := make([]serverView, len(found))
	var wg sync.WaitGroup
	for i, f := range found {
		out[i].Found = f
		wg.Go(func() {
			var st State
			if err := c.call(ctx, f.Path, http.MethodGet, "/v1/state", nil, &st); err != nil {
				out[i].Err = err.Error()
				return
			}
			out[i].State = st
		})
	}
	wg.Wait()
	return out
}

// call makes one request of the server at path; out, when set, gets its
// JSON answer.
func (c *Console) call(ctx context.Context, path, method, route string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = strings.NewReader(string(b))
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := c.request(ctx, path, method, route, rd)
	if err != nil {
		return fmt.Errorf("the server does not answer (it may have refused this console): %w", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if resp.StatusCode >= 300 {
		return &httpError{code: resp.StatusCode, msg: trimErr(b)}
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// request makes one request of the server whose socket is at path, with
// the console's credential. Closing the answer's body closes the
// connection too.
func (c *Console) request(ctx context.Context, path, method, route string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, "http://spillway"+route, body)
	if err != nil {
		return nil, err
	}
	if c.credential != "" {
		req.Header.Set(credentialHeader, c.credential)
	}
	cl := unixClient(path)
	resp, err := cl.Do(req)
	if err != nil {
		cl.CloseIdleConnections()
		return nil, err
	}
	resp.Body = closingBody{resp.Body, cl}
	return resp, nil
}

// closingBody is an answer's body whose Close closes its client's
// connections: each request has a client of its own.
type closingBody struct {
	io.ReadCloser
	cl *http.Client
}

func (b closingBody) Close() error {
	err := b.ReadCloser.Close()
	b.cl.CloseIdleConnections()
	return err
}

type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

// server finds the socket of the server with pid.
func (c *Console) server(pid int) (string, error) {
	found, err := Discover(c.dir)
	if err != nil {
		return "", err
	}
	for _, f := range found {
		if f.PID == pid {
			return f.Path, nil
		}
	}
	return "", fmt.Errorf("no spillway server with pid %d runs any more", pid)
}

// relayAnswer gives the person's answer to the server that asked.
func (c *Console) relayAnswer(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	pid, _ := strconv.Atoi(r.FormValue("server"))
	c.relay(w, r, pid, "/v1/answer", answerRequest{ID: r.FormValue("id"), Choice: r.FormValue("choice")})
}

// relaySecret gives the person's answer to a secret prompt to the
// server whose job asked. The secret is read as bytes and cleared once
// sent.
func (c *Console) relaySecret(w http.ResponseWriter, r *http.Request) {
	c.relayForm(w, r, 8<<10, func(form map[string]string, typed []byte) (int, string, any) {
		pid, _ := strconv.Atoi(form["server"])
		return pid, "/v1/secret", secretRequest{Session: form["session"], ID: form["id"], Action: form["action"], Secret: typed}
	})
}

// relayForm reads a form of at most limit bytes whose "secret" field is
// what the person typed, and relays what to makes of it; the body and
// the typing are cleared once sent.
func (c *Console) relayForm(w http.ResponseWriter, r *http.Request, limit int64, to func(form map[string]string, typed []byte) (server int, route string, body any)) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	defer clear(body)
	if err != nil {
		http.Error(w, "the form could not be read", http.StatusBadRequest)
		return
	}
	form, typed := secret.ParseForm(body)
	defer clear(typed)
	pid, route, req := to(form, typed)
	c.relay(w, r, pid, route, req)
}

// relay posts body to route of the server with pid and answers the page
// as the server answered: its status and first line, or 204.
func (c *Console) relay(w http.ResponseWriter, r *http.Request, pid int, route string, body any) {
	path, err := c.server(pid)
	if err != nil {
		http.Error(w, err.Error(), http.StatusGone)
		return
	}
	err = c.call(r.Context(), path, http.MethodPost, route, body, nil)
	var he *httpError
	switch {
	case errors.As(err, &he):
		http.Error(w, he.msg, he.code)
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadGateway)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// relayTerm streams a held job's terminal from its server to the page;
// the page closing it hands the job back.
func (c *Console) relayTerm(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	q := r.URL.Query()
	pid, _ := strconv.Atoi(q.Get("server"))
	path, err := c.server(pid)
	if err != nil {
		http.Error(w, err.Error(), http.StatusGone)
		return
	}
	route := "/v1/term?" + url.Values{"session": {q.Get("session")}, "pid": {q.Get("pid")}}.Encode()
	resp, err := c.request(r.Context(), path, http.MethodGet, route, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		http.Error(w, trimErr(b), resp.StatusCode)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			fl.Flush()
		}
		if err != nil {
			return
		}
	}
}

// relayTermInput passes what the person typed to the held job. The
// typing is the "secret" field: read as bytes and cleared, as a
// password typed with echo off is.
func (c *Console) relayTermInput(w http.ResponseWriter, r *http.Request) {
	c.relayForm(w, r, 64<<10, func(form map[string]string, typed []byte) (int, string, any) {
		server, _ := strconv.Atoi(form["server"])
		pid, _ := strconv.Atoi(form["pid"])
		return server, "/v1/term/input", termInput{Session: form["session"], PID: pid, Data: typed}
	})
}

// events streams "changed" whenever a server's state changes, and every
// few seconds, when a server may have come or gone.
func (c *Console) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	changed := make(chan struct{}, 1)
	poke := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	watching := map[string]bool{}
	watch := func() {
		found, _ := Discover(c.dir)
		for _, f := range found {
			if watching[f.Path] {
				continue
			}
			watching[f.Path] = true
			go func() {
				c.follow(ctx, f.Path, poke)
				poke()
			}()
		}
	}
	watch()
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	fmt.Fprint(w, "event: changed\ndata: {}\n\n")
	fl.Flush()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			n := len(watching)
			watch()
			if len(watching) == n {
				continue
			}
		case <-changed:
		}
		if _, err := fmt.Fprint(w, "event: changed\ndata: {}\n\n"); err != nil {
			return
		}
		fl.Flush()
	}
}

// follow reads a server's events, calling poke for each, until it ends.
func (c *Console) follow(ctx context.Context, path string, poke func()) {
	resp, err := c.request(ctx, path, http.MethodGet, "/v1/events", nil)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "event: ") {
			poke()
		}
	}
}

// viewTmpl renders the servers, parsed on first use.
var viewTmpl = sync.OnceValue(func() *template.Template {
	b, _ := templates.ReadFile("templates/view.html")
	// A secret prompt says who asks in the words of the secret page.
	t := template.Must(template.New("view").Funcs(secret.TemplateFuncs).Parse(secret.WhoHTML))
	return template.Must(t.Funcs(template.FuncMap{
		"ago": func(t time.Time) string { return time.Since(t).Round(time.Second).String() },
		"left": func(t time.Time) string {
			return time.Until(t).Round(time.Second).String()
		},
	}).Parse(string(b)))
})

func (c *Console) view(w http.ResponseWriter, r *http.Request, csrf string) {
	views := c.states(r.Context())
	unsandboxed := false
	for _, v := range views {
		unsandboxed = unsandboxed || v.State.Server.Unsandboxed
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := viewTmpl().Execute(w, map[string]any{"Servers": views, "Unsandboxed": unsandboxed, "Csrf": csrf, "Choices": Choices, "TrustProject": TrustProject}); err != nil {
		c.log.Warn("console: rendering the page", "error", err)
	}
}
