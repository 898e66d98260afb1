// Package secret serves the one-time pages on which a person answers a
// password prompt of a command, so that the secret goes from their
// browser to the command's terminal and never through the model, its
// client or its provider (docs/interactive.md).
//
// A page lives at an unguessable path (256 random bits), which is its
// only credential; it takes one answer, or a Cancel, and is gone after
// that or after its lifetime. It loads nothing from elsewhere, sets no
// cookie, refuses a post that a browser says came from another origin
// or that lacks the page's own form token, and never shows the secret
// back. The answer is written to the terminal followed by Enter, and
// the buffers that held it are cleared.
package secret

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// DefaultLifetime is how long a page stays open without an answer.
const DefaultLifetime = 5 * time.Minute

// UnverifiedWarning is what a page, and the result, say of a prompt
// whose program is not verified.
const UnverifiedWarning = "a program from the workspace, not the system's sudo, asks for a password: do not type your login password"

// PathPrefix is where the pages are served: PathPrefix + token.
const PathPrefix = "/secret/"

// A Request is what a page asks and what it does with the answer.
type Request struct {
	// SecretPrompt is the prompt as the console shows it too: Command,
	// Cwd and the details' Prompt are shown on the page (the person must
	// know what they answer); Program reads the terminal, Verified says
	// it is the system's, Says says in spillway's own words who asks and
	// for what ("the system's sudo asks for alice's password"), Why why
	// it is not verified. The Prompt is the command's own text, shown
	// apart: a command chooses it (sudo -p). ID, Title, Warning and the
	// expiry times are not read: the page sets its own.
	tool.SecretPrompt
	// Answer writes the secret to the terminal, followed by Enter. The
	// slice is cleared when it returns: it must not be kept. A
	// *NotSentError says nothing was written, and why; a
	// *MaybeSentError that it was written, but may have reached another
	// program than the one the page named.
	Answer func(secret []byte) error
	// Cancel is called when the person cancels instead.
	Cancel func()
}

// A NotSentError is an answer that was not written: the program the page
// named no longer reads the terminal. Why says why, for the person.
type NotSentError struct{ Why string }

func (e *NotSentError) Error() string { return "not sent: " + e.Why }

// A MaybeSentError is an answer that was written while the program the
// page named stopped reading the terminal, or another started to: it may
// have reached that other program.
type MaybeSentError struct{ Why string }

func (e *MaybeSentError) Error() string { return "may have reached another program: " + e.Why }

// An Outcome is how a page ended.
type Outcome int

// Outcomes of a page.
const (
	Pending   Outcome = iota // still open
	Answered                 // the secret was written to the terminal
	Cancelled                // the person cancelled
	Expired                  // its lifetime passed
	Closed                   // closed unanswered (the job ended, the session closed)
)

func (o Outcome) String() string {
	return [...]string{"pending", "answered", "cancelled", "expired", "closed"}[o]
}

// Pages serve the pages of one toolset. Their zero value is not usable:
// make them with New.
type Pages struct {
	lifetime time.Duration
	log      *slog.Logger

	mu    sync.Mutex
	base  string // scheme://host:port the pages are reached at, once known
	srv   *http.Server
	pages map[string]*Page
	// gone keeps why pages were closed (CloseBecause), for the person
	// who posts to one after.
	gone   map[string]string
	closed bool
}

// New returns Pages whose pages live for lifetime (DefaultLifetime when
// zero or less). Until ServeAt names a server that serves them, the first
// page starts a listener of their own on 127.0.0.1.
func New(lifetime time.Duration, log *slog.Logger) *Pages {
	if lifetime <= 0 {
		lifetime = DefaultLifetime
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Pages{lifetime: lifetime, log: log, pages: map[string]*Page{}, gone: map[string]string{}}
}

// ServeAt says that a server of the caller routes PathPrefix to these
// Pages at base (scheme://host:port): the pages' addresses name it, and
// no listener of their own is started. Call it before the first page.
func (p *Pages) ServeAt(base string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.srv == nil {
		p.base = strings.TrimSuffix(base, "/")
	}
}

// Lifetime is how long a page stays open without an answer.
func (p *Pages) Lifetime() time.Duration { return p.lifetime }

// ErrClosed is the error of Open after Close.
var ErrClosed = errors.New("the secret pages are closed")

// Open opens a page for r and returns it.
func (p *Pages) Open(r Request) (*Page, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrClosed
	}
	if p.base == "" {
		if err := p.listenLocked(); err != nil {
			return nil, err
		}
	}
	pg := &Page{
		pages:   p,
		token:   randomText(),
		form:    randomText(),
		id:      randomText()[:22],
		req:     r,
		expires: time.Now().Add(p.lifetime),
		done:    make(chan struct{}),
	}
	pg.url = p.base + PathPrefix + pg.token
	pg.timer.Store(time.AfterFunc(p.lifetime, func() { pg.end(Expired) }))
	p.pages[pg.token] = pg
	return pg, nil
}

// listenLocked starts the pages' own listener on a free port of
// 127.0.0.1: only this machine can reach it.
func (p *Pages) listenLocked() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("cannot serve the page for the password prompt on 127.0.0.1: %w", err)
	}
	p.srv = &http.Server{
		Handler:           p,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		ErrorLog:          slog.NewLogLogger(p.log.Handler(), slog.LevelDebug),
	}
	p.base = "http://" + ln.Addr().String()
	go p.srv.Serve(ln)
	return nil
}

// Owns reports whether path is the path of an open page of p.
func (p *Pages) Owns(path string) bool { return p.lookup(path) != nil }

// lookup returns the open page at path, or nil.
func (p *Pages) lookup(path string) *Page {
	token, ok := strings.CutPrefix(path, PathPrefix)
	if !ok || token == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pages[token]
}

// Close closes every open page and stops the listener, if one was
// started.
func (p *Pages) Close() error {
	p.mu.Lock()
	p.closed = true
	pages := make([]*Page, 0, len(p.pages))
	for _, pg := range p.pages {
		pages = append(pages, pg)
	}
	srv := p.srv
	p.mu.Unlock()
	for _, pg := range pages {
		pg.end(Closed)
	}
	if srv != nil {
		return srv.Close()
	}
	return nil
}

// A Page is one open question to the person.
type Page struct {
	pages   *Pages
	token   string // the path's secret part
	form    string // the form token a post must carry
	id      string // names the page to an MCP client (elicitationId)
	url     string
	req     Request
	expires time.Time
	timer   atomic.Pointer[time.Timer]

	mu      sync.Mutex // serialises the answer
	once    sync.Once
	outcome Outcome
	done    chan struct{}
}

// URL is the page's address.
func (pg *Page) URL() string { return pg.url }

// ID names the page without giving its address away.
func (pg *Page) ID() string { return pg.id }

// Prompt is the prompt the page shows.
func (pg *Page) Prompt() string { return pg.req.Prompt }

// Expires is when the page closes if nobody answers it.
func (pg *Page) Expires() time.Time { return pg.expires }

// Done is closed when the page has ended.
func (pg *Page) Done() <-chan struct{} { return pg.done }

// Outcome is how the page ended, Pending while it is open.
func (pg *Page) Outcome() Outcome {
	select {
	case <-pg.done:
		return pg.outcome
	default:
		return Pending
	}
}

// Close closes the page unanswered, if it is still open.
func (pg *Page) Close() { pg.end(Closed) }

// CloseBecause closes the page unanswered, if it is still open, and
// keeps why: a post that comes after is told it.
func (pg *Page) CloseBecause(why string) {
	pg.pages.mu.Lock()
	pg.pages.gone[pg.token] = why
	pg.pages.mu.Unlock()
	pg.end(Closed)
}

// goneWhy is why the page at path was closed, if CloseBecause closed it.
func (p *Pages) goneWhy(path string) string {
	token, _ := strings.CutPrefix(path, PathPrefix)
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.gone[token]
}

// end ends the page with outcome o, once: it can no longer be reached.
func (pg *Page) end(o Outcome) bool {
	ended := false
	pg.once.Do(func() {
		ended = true
		// The timer may fire (a short lifetime) before Open stored it.
		if t := pg.timer.Load(); t != nil {
			t.Stop()
		}
		pg.pages.mu.Lock()
		delete(pg.pages.pages, pg.token)
		pg.pages.mu.Unlock()
		pg.outcome = o
		close(pg.done)
	})
	return ended
}

// randomText is 256 random bits, base64url: an unguessable path part.
func randomText() string {
	var b [32]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
