package spillway

import (
	"net/http"

	"github.com/spillway-dev/spillway/internal/secret"
)

// Secret prompts. A TTY job that waits for input while its terminal
// reads with echo off (sudo, ssh, git's credential prompt, gpg, Python's
// getpass, read -s) waits for a secret: its result says so
// (BashDetails.WaitsSecret, BashDetails.Secret) and gives the address of
// a one-time page, served on loopback, where the person types the
// secret; it goes straight to the job's terminal and is kept nowhere.
// WriteStdin refuses to send it text unless AllowModelSecret is set.
// docs/interactive.md shows a session.

// SecretPages serve a toolset's one-time pages. By default the first
// page starts a listener of their own on 127.0.0.1; a server that
// routes the path /secret/ to them instead calls ServeAt first.
type SecretPages struct{ p *secret.Pages }

// SecretPages returns the toolset's secret pages.
func (t *Toolset) SecretPages() *SecretPages { return t.secrets }

// ServeAt says that the caller's server, reached at base
// (scheme://host:port), routes /secret/ to these pages: their
// addresses name it, and no listener of their own is started. Call it
// before the toolset's first command.
func (s *SecretPages) ServeAt(base string) { s.p.ServeAt(base) }

// Owns reports whether path is the path of one of the open pages.
func (s *SecretPages) Owns(path string) bool { return s.p.Owns(path) }

// ServeHTTP serves the pages: a page's path is its only credential, so
// the caller's own authentication does not apply to them.
func (s *SecretPages) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.p.ServeHTTP(w, r) }
