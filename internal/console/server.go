package console

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spillway-dev/spillway/internal/secret"
	"github.com/spillway-dev/spillway/tool"
)

// A Source gives a session's jobs and history to the page.
type Source interface {
	// Jobs lists the session's background jobs, with their recent output.
	Jobs() []Job
	// History lists the session's last commands, newest last.
	History() []Run
	// Secrets lists the open secret prompts.
	Secrets() []Secret
	// AnswerSecret answers (action "answer") or cancels ("cancel") the
	// secret prompt id. The caller clears secret.
	AnswerSecret(id, action string, secret []byte) error
	// Hold gives a terminal job to the person (tap gets its raw output
	// and must not block) and returns its screen; Release hands it back;
	// Input types into it.
	Hold(pid int, tap func([]byte)) ([]string, error)
	Release(pid int)
	Input(pid int, b []byte) error
}

// A Secret is an open secret prompt: a program of a job waits for a
// password, which the person types on the page.
type Secret = tool.SecretPrompt

// A Job is one background job as the page shows it.
type Job = tool.JobWatch

// A Run is one command of the history.
type Run struct {
	ID       int    `json:"id"`
	Command  string `json:"command"`
	Exit     string `json:"exit"`
	Started  string `json:"started"`
	Duration string `json:"duration"`
}

// ServerInfo describes a server on the page.
type ServerInfo struct {
	PID         int       `json:"pid"`
	Kind        string    `json:"kind"` // "mcp" or "serve"
	Cwd         string    `json:"cwd"`
	Unsandboxed bool      `json:"unsandboxed"`
	Started     time.Time `json:"started"`
}

// State is what a server shows a console.
type State struct {
	Server   ServerInfo     `json:"server"`
	Sessions []SessionState `json:"sessions"`
}

// SessionState is one session on the page.
type SessionState struct {
	SessionInfo
	Items   []Item   `json:"items"`
	Jobs    []Job    `json:"jobs"`
	History []Run    `json:"history"`
	Secrets []Secret `json:"secrets"`
}

// credentialHeader carries, from a console to a serve, the credential
// whose sessions it may see.
const credentialHeader = "X-Spillway-Credential"

// CredentialID names a credential without holding it.
func CredentialID(secret string) string {
	if secret == "" {
		return ""
	}
	h := sha256.Sum256([]byte("spillway-console\x00" + secret))
	return hex.EncodeToString(h[:16])
}

// A Server serves a hub on its socket.
type Server struct {
	hub  *Hub
	info ServerInfo
	dir  string
	path string // the address a console dials
	file string // the entry in dir that names it
	srv  *http.Server
	ln   net.Listener
	log  *slog.Logger
}

// Listen serves hub on this process's socket in dir (Dir when empty)
// until Close.
func Listen(dir string, hub *Hub, info ServerInfo) (*Server, error) {
	if dir == "" {
		d, err := Dir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	ln, path, file, err := listen(dir)
	if err != nil {
		return nil, err
	}
	if info.PID == 0 {
		info.PID = os.Getpid()
	}
	if info.Started.IsZero() {
		info.Started = time.Now()
	}
	info.Unsandboxed = hub.unsandboxed
	s := &Server{hub: hub, info: info, dir: dir, path: path, file: file, ln: ln, log: hub.log}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/state", s.state)
	mux.HandleFunc("GET /v1/events", s.events)
	mux.HandleFunc("POST /v1/answer", s.answer)
	mux.HandleFunc("POST /v1/secret", s.secret)
	mux.HandleFunc("GET /v1/term", s.term)
	mux.HandleFunc("POST /v1/term/input", s.termInput)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(hub.log.Handler(), slog.LevelDebug)}
	go s.srv.Serve(&peerListener{Listener: ln, dir: dir, log: hub.log})
	return s, nil
}

// Path is the address a console dials: the socket's path, or an
// abstract address ("@…").
func (s *Server) Path() string { return s.path }

// Close stops serving and removes the socket.
func (s *Server) Close() error {
	err := s.srv.Close()
	os.Remove(s.file)
	return err
}

// peerListener accepts only the peers checkPeer lets through.
type peerListener struct {
	net.Listener
	dir string
	log *slog.Logger
}

func (l *peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if err := checkPeer(c, l.dir); err != nil {
			l.log.Warn("console: connection refused", "why", err)
			c.Close()
			continue
		}
		return c, nil
	}
}

// visible reports whether a console that presented credential may see
// session s: a session opened with a credential only by that
// credential's console.
func visible(s *SessionInfo, credential string) bool {
	if s.Credential == "" {
		return true
	}
	return subtle.ConstantTimeCompare([]byte(s.Credential), []byte(CredentialID(credential))) == 1
}

// Snapshot is the state a console with credential sees.
func (h *Hub) Snapshot(info ServerInfo, credential string) State {
	h.mu.Lock()
	h.expireLocked()
	st := State{Server: info}
	sources := map[string]Source{}
	for _, s := range h.sessions {
		if !visible(s, credential) {
			continue
		}
		ss := SessionState{SessionInfo: *s}
		for _, it := range h.items {
			if it.Session == s.ID {
				ss.Items = append(ss.Items, *it)
			}
		}
		slices.SortFunc(ss.Items, func(a, b Item) int { return a.Asked.Compare(b.Asked) })
		st.Sessions = append(st.Sessions, ss)
		sources[s.ID] = s.Source
	}
	h.mu.Unlock()
	// The sources lock their own state: asked outside the hub's lock.
	for i := range st.Sessions {
		if src := sources[st.Sessions[i].ID]; src != nil {
			st.Sessions[i].Jobs = src.Jobs()
			st.Sessions[i].History = src.History()
			st.Sessions[i].Secrets = src.Secrets()
		}
	}
	slices.SortFunc(st.Sessions, func(a, b SessionState) int { return a.Started.Compare(b.Started) })
	return st
}

func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(s.hub.Snapshot(s.info, r.Header.Get(credentialHeader)))
}

// An answerRequest answers one item.
type answerRequest struct {
	ID     string `json:"id"`
	Choice string `json:"choice"`
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	var a answerRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&a); err != nil {
		http.Error(w, "the answer is not JSON {id, choice}: "+err.Error(), http.StatusBadRequest)
		return
	}
	if !s.hub.itemVisible(a.ID, r.Header.Get(credentialHeader)) {
		s.log.Warn("console: a late answer was ignored", "item", a.ID, "choice", a.Choice)
		http.Error(w, ErrGone.Error(), http.StatusGone)
		return
	}
	switch err := s.hub.Answer(a.ID, a.Choice); {
	case errors.Is(err, ErrGone):
		http.Error(w, err.Error(), http.StatusGone)
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// itemVisible reports whether item id is open and its session is one
// credential sees.
func (h *Hub) itemVisible(id, credential string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	it, ok := h.items[id]
	if !ok {
		return false
	}
	s, ok := h.sessions[it.Session]
	return ok && visible(s, credential)
}

// minEventGap spaces the change events a console is sent: a job that
// prints fast wakes the page a few times a second, not per line.
const minEventGap = 100 * time.Millisecond

// events streams a "changed" event at each change, as server-sent
// events, until the console goes away.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	s.hub.watch(1)
	defer s.hub.watch(-1)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	credential := r.Header.Get(credentialHeader)
	// Jobs do not tell the hub when their output moves: while a console
	// watches, the state is compared every lookEvery instead, so that a
	// server nobody watches pays nothing.
	tick := time.NewTicker(lookEvery)
	defer tick.Stop()
	last := s.fingerprint(credential)
	for {
		ch := s.hub.Changed()
		if _, err := fmt.Fprint(w, "event: changed\ndata: {}\n\n"); err != nil {
			return
		}
		fl.Flush()
	wait:
		for {
			select {
			case <-ch:
				last = s.fingerprint(credential)
				break wait
			case <-tick.C:
				if fp := s.fingerprint(credential); fp != last {
					last = fp
					break wait
				}
			case <-r.Context().Done():
				return
			}
		}
		select {
		case <-time.After(minEventGap):
		case <-r.Context().Done():
			return
		}
	}
}

// lookEvery is how often a watched server looks for moved output.
const lookEvery = 200 * time.Millisecond

// fingerprint sums up what a console of credential sees.
func (s *Server) fingerprint(credential string) [32]byte {
	b, _ := json.Marshal(s.hub.Snapshot(s.info, credential))
	return sha256.Sum256(b)
}

// A secretRequest answers or cancels a secret prompt.
type secretRequest struct {
	Session string `json:"session"`
	ID      string `json:"id"`
	Action  string `json:"action"`
	Secret  []byte `json:"secret"`
}

func (s *Server) secret(w http.ResponseWriter, r *http.Request) {
	var a secretRequest
	defer func() { clear(a.Secret) }()
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<10)).Decode(&a); err != nil {
		http.Error(w, "the answer is not JSON {session, id, action, secret}", http.StatusBadRequest)
		return
	}
	src := s.hub.source(a.Session, r.Header.Get(credentialHeader))
	if src == nil {
		http.Error(w, ErrGone.Error(), http.StatusGone)
		return
	}
	if err := src.AnswerSecret(a.ID, a.Action, a.Secret); err != nil {
		var maybe *secret.MaybeSentError
		if errors.As(err, &maybe) {
			s.log.Warn("console: a secret answered on the console may have reached another program", "why", maybe.Why)
			http.Error(w, "Your answer may have reached another program: change this secret now ("+maybe.Why+").", http.StatusConflict)
			return
		}
		http.Error(w, "Not sent: "+err.Error(), http.StatusGone)
		return
	}
	s.log.Info("console: a secret prompt was answered on the console", "action", a.Action, "via", s.hub.via())
	s.hub.Notify()
	w.WriteHeader(http.StatusNoContent)
}

// source is the source of session id, if credential sees it.
func (h *Hub) source(id, credential string) Source {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.sessions[id]; ok && visible(s, credential) {
		return s.Source
	}
	return nil
}

// watch counts the consoles watching.
func (h *Hub) watch(d int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.watchers += d
}

// Watched reports whether a console watches: a source need not say
// when its output moves while none does.
func (h *Hub) Watched() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.watchers > 0
}

// unixClient is an HTTP client that reaches the server at path.
func unixClient(path string) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
	}}
}

// trimErr is the first line of a server's error body.
func trimErr(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}
