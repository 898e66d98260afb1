// Package console is the person's console: the questions a server holds
// for the person (approvals of commands a rule holds, secret prompts),
// its sessions' jobs and history, shown on a page the person opens with
// spillway console and answered there.
//
// Two processes take part. Each server (spillway mcp, spillway serve
// --console) keeps a Hub and serves it on a Unix socket in the user's
// runtime directory (Listen). spillway console, run by the person in
// their own terminal, finds those sockets (Discover), serves the page on
// 127.0.0.1 behind a one-time link (Console) and relays what the person
// does to the servers.
//
// What stops a command the agent runs from answering for the person:
// the page's login is a secret kept in the browser tab's own origin and
// sent as a header, which nothing else on the machine has; and the
// socket refuses a peer descended from a spillway server or carrying a
// session's mark. Without --sandbox a command runs as the same user and
// can read or ptrace anything the person runs, so neither is a boundary
// against it: a speed bump, and the page and the audit log say so.
package console

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// Keep is how long a question whose call gave up stays on the page: an
// answer given then applies once to the next identical call.
const Keep = 10 * time.Minute

// The answers to an approval.
const (
	AllowOnce    = "allow once"
	AllowSession = "allow for this session"
	Deny         = "deny"
	// TrustProject, offered only by a question whose Trust is set,
	// trusts the project's rule files as they are now; the command is
	// then decided again by them.
	TrustProject = "trust this project's rules"
)

// Choices are the answers to an approval, in the order the page shows
// them; a question with Trust offers TrustProject after them.
var Choices = []string{AllowOnce, AllowSession, Deny}

// How a question was answered, as the audit log says it.
const (
	ViaForm        = "form"
	ViaConsole     = "console"
	ViaUnsandboxed = "console-unsandboxed"
	ViaTTY         = "tty"
)

// A Question asks the person whether a command may run.
type Question struct {
	// Session is the id the hub knows the asking session by.
	Session string `json:"session"`
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	// Env is the call's environment as the call gave it: part of what
	// makes two calls identical, never shown.
	Env string `json:"-"`
	// Parts are the parts of the command that need approval, as the
	// rules decided them.
	Parts []tool.RulePart `json:"parts"`
	// Project and Trust, when a suspended allow entry of the project
	// would have allowed a part, are the project and its allow entries
	// ("FILE:LINE: ENTRY") that trusting it lets count: the question
	// then offers TrustProject too.
	Project string   `json:"project,omitempty"`
	Trust   []string `json:"trust,omitempty"`
	// TrustHash is the hash of the project's rule files when Trust was
	// read: trusting it trusts them as shown (never sent to the page).
	TrustHash string `json:"-"`
}

// key names a call by what it runs, where, with what and for whom: an
// answer given to one applies only to an identical one.
func (q Question) key() string {
	h := sha256.Sum256([]byte(q.Session + "\x00" + q.Command + "\x00" + q.Cwd + "\x00" + q.Env))
	return hex.EncodeToString(h[:])
}

// An Answer is the person's choice and how it was given.
type Answer struct {
	Choice string
	Via    string
	// TrustHash is the question's, for a TrustProject answered after
	// its call gave up: the files as the person was shown them.
	TrustHash string
}

// An Item is a question on the page.
type Item struct {
	ID       string    `json:"id"`
	Question           // what it asks
	Asked    time.Time `json:"asked"`
	// Waiting is true while a call waits for the answer; once it gave
	// up, the item stays until Expires and its answer is kept for the
	// next identical call.
	Waiting bool      `json:"waiting"`
	Expires time.Time `json:"expires,omitzero"`

	answer chan Answer // holds the one answer a waiting call gets
	done   bool        // answered or withdrawn: off the page
}

// A SessionInfo names a session on the page.
type SessionInfo struct {
	ID      string    `json:"id"`
	Label   string    `json:"label"`
	Started time.Time `json:"started"`
	// Credential names who opened it (serve: a hash of the credential);
	// a console sees only the sessions of the credential it presents.
	Credential string `json:"-"`
	// Source gives the session's jobs and history (nil: none).
	Source Source `json:"-"`
}

// grant is an answer given on the page after its call gave up.
type grant struct {
	choice    string
	via       string
	trustHash string
	expires   time.Time
}

// A Hub holds what one server shows on the console.
type Hub struct {
	log *slog.Logger
	// unsandboxed says that commands run as the person, unconfined: an
	// answer on the page is recorded as console-unsandboxed, and the
	// page's first line says so.
	unsandboxed bool
	now         func() time.Time

	mu       sync.Mutex
	sessions map[string]*SessionInfo
	items    map[string]*Item
	grants   map[string]grant
	changed  chan struct{} // closed and replaced at each change
	watchers int           // pages watching (Changed callers)
	// credential stamps the sessions added: only a console presenting
	// it sees them.
	credential string
}

// NewHub returns an empty hub. unsandboxed says that the server's
// commands run without --sandbox.
func NewHub(log *slog.Logger, unsandboxed bool) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{log: log, unsandboxed: unsandboxed, now: time.Now,
		sessions: map[string]*SessionInfo{}, items: map[string]*Item{}, grants: map[string]grant{},
		changed: make(chan struct{})}
}

// Unsandboxed reports whether the server's commands run unconfined.
func (h *Hub) Unsandboxed() bool { return h.unsandboxed }

// via is how an answer on this hub's page is recorded.
func (h *Hub) via() string {
	if h.unsandboxed {
		return ViaUnsandboxed
	}
	return ViaConsole
}

// SetCredential says that the sessions added from now are opened with
// secret: only a console that presents it sees them.
func (h *Hub) SetCredential(secret string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.credential = CredentialID(secret)
}

// AddSession shows a session on the page.
func (h *Hub) AddSession(s SessionInfo) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s.Credential == "" {
		s.Credential = h.credential
	}
	if s.Started.IsZero() {
		s.Started = h.now()
	}
	h.sessions[s.ID] = &s
	h.changedLocked()
}

// RemoveSession takes a session and its questions off the page.
func (h *Hub) RemoveSession(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.sessions, id)
	for k, it := range h.items {
		if it.Session == id {
			it.done = true
			delete(h.items, k)
		}
	}
	h.changedLocked()
}

// changedLocked wakes every page that watches.
func (h *Hub) changedLocked() {
	close(h.changed)
	h.changed = make(chan struct{})
}

// Changed returns a channel closed at the next change.
func (h *Hub) Changed() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}

// Notify tells the pages that something they show changed (a job's
// output, its state).
func (h *Hub) Notify() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.changedLocked()
}

// A Pending is a question on the page that a call waits for.
type Pending struct {
	hub  *Hub
	item *Item
}

// Ask puts q on the page. The caller waits on Answered, and must end
// with Withdraw (answered elsewhere) or GiveUp (its time ran out).
func (h *Hub) Ask(q Question) *Pending {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expireLocked()
	// The same call asked again replaces the item its last attempt left.
	k := q.key()
	for id, it := range h.items {
		if !it.Waiting && it.key() == k {
			it.done = true
			delete(h.items, id)
		}
	}
	it := &Item{ID: newID(), Question: q, Asked: h.now(), Waiting: true, answer: make(chan Answer, 1)}
	h.items[it.ID] = it
	h.changedLocked()
	return &Pending{hub: h, item: it}
}

// ID is the item's id on the page.
func (p *Pending) ID() string { return p.item.ID }

// Answered yields the answer given on the page.
func (p *Pending) Answered() <-chan Answer { return p.item.answer }

// Withdraw takes the item off the page because the question was answered
// elsewhere. It reports false when the page answered first: the answer is
// then on Answered.
func (p *Pending) Withdraw() bool {
	h := p.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if p.item.done {
		return false
	}
	p.item.done = true
	delete(h.items, p.item.ID)
	h.changedLocked()
	return true
}

// GiveUp says that the call stopped waiting: the item stays on the page
// for Keep, and an answer given there applies once to the next identical
// call (Granted). It reports false when the page answered first.
func (p *Pending) GiveUp() bool {
	h := p.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if p.item.done {
		return false
	}
	p.item.Waiting = false
	p.item.Expires = h.now().Add(Keep)
	h.changedLocked()
	return true
}

// Withdraw takes q's item off the page, if its call gave up and q was
// answered elsewhere.
func (h *Hub) Withdraw(q Question) {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := q.key()
	for id, it := range h.items {
		if !it.Waiting && it.key() == k {
			it.done = true
			delete(h.items, id)
			h.changedLocked()
		}
	}
}

// Granted takes the answer the page gave to q after its call gave up,
// once.
func (h *Hub) Granted(q Question) (Answer, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expireLocked()
	k := q.key()
	g, ok := h.grants[k]
	if !ok {
		return Answer{}, false
	}
	delete(h.grants, k)
	h.changedLocked()
	return Answer{Choice: g.choice, Via: g.via, TrustHash: g.trustHash}, true
}

// ErrGone is the error of an answer to an item no longer on the page:
// answered elsewhere, withdrawn, or expired.
var ErrGone = errors.New("this question is no longer open: it was answered elsewhere, withdrawn or expired")

// ErrChoice is the error of an answer that is none of Choices (nor
// TrustProject, for a question that offers it).
var ErrChoice = errors.New("the answer must be one of: allow once, allow for this session, deny (or trust this project's rules, where offered)")

// Answer answers item id with choice, for the person on the page.
func (h *Hub) Answer(id, choice string) error {
	if !slices.Contains(Choices, choice) && choice != TrustProject {
		return ErrChoice
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.expireLocked()
	it, ok := h.items[id]
	if !ok || it.done {
		h.log.Warn("console: a late answer was ignored", "item", id, "choice", choice)
		return ErrGone
	}
	if choice == TrustProject && len(it.Trust) == 0 {
		return ErrChoice // not offered: the item stays open
	}
	it.done = true
	delete(h.items, id)
	a := Answer{Choice: choice, Via: h.via()}
	if it.Waiting {
		it.answer <- a
	} else if choice != Deny {
		h.grants[it.key()] = grant{choice: choice, via: a.Via, trustHash: it.TrustHash, expires: it.Expires}
	}
	h.log.Info("console: answered", "item", id, "choice", choice, "via", a.Via)
	h.changedLocked()
	return nil
}

// expireLocked drops the items and grants whose time passed.
func (h *Hub) expireLocked() {
	now := h.now()
	for id, it := range h.items {
		if !it.Waiting && now.After(it.Expires) {
			it.done = true
			delete(h.items, id)
		}
	}
	for k, g := range h.grants {
		if now.After(g.expires) {
			delete(h.grants, k)
		}
	}
}

// newID is an item's id: random, so that one page cannot guess another's.
func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
