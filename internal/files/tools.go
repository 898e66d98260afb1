// Package files is the engine of spillway's read and ls tools: exact
// paging of files of any size through a per-file line index, every page
// held to the policy's limits, and directory listings that stay bounded
// whatever the directory holds. It returns pages and listings; the root
// package writes the text, notices and details the model reads.
package files

import (
	"sync/atomic"

	"github.com/spillway-dev/spillway/internal/confine"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/tool"
)

// The limits of a Config that sets none: spillway.DefaultPolicy's.
var (
	defaultRead = tool.ReadPolicy{MaxLines: 2000, MaxBytes: 50 << 10, MaxLineChars: 2000}
	defaultLs   = tool.LsPolicy{Limit: 500, MaxBytes: 50 << 10}
)

// Config configures the file tools of one session.
type Config struct {
	// Cwd is the directory relative paths resolve against (absolute).
	Cwd string
	// Read and Ls are the policies of the read and ls tools. A zero Read
	// or Ls takes the defaults docs/tools.md states, as does a zero line
	// or byte limit; a zero MaxLineChars in a Read that is not zero means
	// lines are never cut.
	Read tool.ReadPolicy
	Ls   tool.LsPolicy
	// Spill, when set, is the session's spill store: a read of one of its
	// files that the budget deleted says so.
	Spill *spill.Store
	// Root, when set, confines read and ls to a directory tree (the
	// spill directory allowed).
	Root *confine.Root
	// Hide, when set, is asked of each absolute path ls would name: what
	// it returns ("" for nothing) keeps the entry out, counted and said;
	// a directory it hides is not listed.
	Hide func(path string) string
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
	if lim := cfg.Read; lim.MaxLines == 0 && lim.MaxBytes == 0 && lim.MaxLineChars == 0 && lim.MaxTokens == 0 {
		cfg.Read.MaxLines, cfg.Read.MaxBytes, cfg.Read.MaxLineChars = defaultRead.MaxLines, defaultRead.MaxBytes, defaultRead.MaxLineChars
	}
	if cfg.Read.MaxLines <= 0 {
		cfg.Read.MaxLines = defaultRead.MaxLines
	}
	if cfg.Read.MaxBytes <= 0 {
		cfg.Read.MaxBytes = defaultRead.MaxBytes
	}
	if cfg.Read.MaxLineChars < 0 {
		cfg.Read.MaxLineChars = 0
	}
	if cfg.Ls.Limit <= 0 {
		cfg.Ls.Limit = defaultLs.Limit
	}
	if cfg.Ls.MaxBytes <= 0 {
		cfg.Ls.MaxBytes = defaultLs.MaxBytes
	}
	return &Tools{cfg: cfg, index: newIndexCache(defaultIndexEntries, defaultIndexMinBytes)}
}

// IndexStats reports what the line index cache did: how many full scans
// built an index and how many reads found one.
func (t *Tools) IndexStats() IndexStats { return t.index.stats() }
