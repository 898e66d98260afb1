// Package files is the engine of spillway's read and ls tools: exact
// paging of files of any size through a per-file line index, every page
// held to the policy's limits, and directory listings that stay bounded
// whatever the directory holds. It returns pages and listings; the root
// package writes the text, notices and details the model reads.
package files

import (
	"sync/atomic"

	"github.com/spillway-dev/spillway/internal/confine"
	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/spill"
)

// Config configures the file tools of one session.
type Config struct {
	// Cwd is the directory relative paths resolve against (absolute).
	Cwd string
	// Read and Ls hold the limits. A zero Read or Ls takes
	// policy.Default()'s; a zero MaxLineChars in a Read that is not zero
	// means lines are never cut.
	Read policy.Read
	Ls   policy.Ls
	// Spill, when set, is the session's spill store: a read of one of its
	// files that the budget deleted says so.
	Spill *spill.Store
	// Root, when set, confines read and ls to a directory tree (the
	// spill directory allowed).
	Root *confine.Root
}

// Tools are the read and ls tools of one session. They keep the line
// indexes of the big files read, so that paging through a file never
// rescans it. Their methods are safe for concurrent use.
type Tools struct {
	cfg   Config
	index *indexCache
	// scanned counts the bytes read from files, to prove in tests that a
	// page found through the index did not rescan the file.
	scanned atomic.Int64
}

// New returns the file tools of one session.
func New(cfg Config) *Tools {
	def := policy.Default()
	if cfg.Read == (policy.Read{}) {
		cfg.Read = def.Read
	}
	if cfg.Read.MaxLines <= 0 {
		cfg.Read.MaxLines = def.Read.MaxLines
	}
	if cfg.Read.MaxBytes <= 0 {
		cfg.Read.MaxBytes = def.Read.MaxBytes
	}
	if cfg.Read.MaxLineChars < 0 {
		cfg.Read.MaxLineChars = 0
	}
	if cfg.Ls.Limit <= 0 {
		cfg.Ls.Limit = def.Ls.Limit
	}
	if cfg.Ls.MaxBytes <= 0 {
		cfg.Ls.MaxBytes = def.Ls.MaxBytes
	}
	return &Tools{cfg: cfg, index: newIndexCache(defaultIndexEntries, defaultIndexMinBytes)}
}

// IndexStats reports what the line index cache did: how many full scans
// built an index and how many reads found one.
func (t *Tools) IndexStats() IndexStats { return t.index.stats() }
