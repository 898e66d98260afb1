// Package search is spillway's in-process grep and find, in ripgrep's
// spirit, built from separate pieces:
//
//   - walk.go: a parallel, cancellable directory walker that yields entries
//     in path order, skips .git and what ignore files exclude, and never
//     follows symlinks (readdir.go and rawfile.go read directories and
//     files with plain system calls, without *os.File's costs);
//   - ignore.go, wildmatch.go: gitignore rules (.gitignore, .ignore,
//     .git/info/exclude) with git's own matching semantics;
//   - literals.go, matcher.go: the literals a regular expression requires,
//     found with bytes.Index so that the regexp runs on candidate lines only;
//   - scan.go: the file scanner (large buffers, bounded memory on any line
//     length, context lines);
//   - grep.go, find.go, glob.go, report.go: the searches, their globs and
//     limits, and the result lines they gather (docs/tools.md); the root
//     package writes their notices and details.
package search

import (
	"github.com/spillway-dev/spillway/internal/confine"
	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/spill"
)

// Config configures a Searcher.
type Config struct {
	// Cwd is the session's working directory: relative paths resolve
	// against it, and results under it are shown relative to it.
	Cwd string
	// Grep and Find hold the limits.
	Grep policy.Grep
	Find policy.Find
	// Spill keeps the full output of a result cut by its byte limit; nil
	// keeps none.
	Spill *spill.Store
	// Workers is the number of goroutines of a search; default GOMAXPROCS.
	Workers int
	// Root, when set, confines grep and find to a directory tree (the
	// spill directory allowed).
	Root *confine.Root
}

// A Searcher runs the grep and find calls of one session. It is safe for
// concurrent use.
type Searcher struct {
	cfg Config
}

// New returns a Searcher; zero limits take policy.Default's.
func New(cfg Config) *Searcher {
	def := policy.Default()
	if cfg.Grep.Limit <= 0 {
		cfg.Grep.Limit = def.Grep.Limit
	}
	if cfg.Grep.MaxBytes <= 0 {
		cfg.Grep.MaxBytes = def.Grep.MaxBytes
	}
	if cfg.Grep.MaxLineChars <= 0 {
		cfg.Grep.MaxLineChars = def.Grep.MaxLineChars
	}
	if cfg.Find.Limit <= 0 {
		cfg.Find.Limit = def.Find.Limit
	}
	if cfg.Find.MaxBytes <= 0 {
		cfg.Find.MaxBytes = def.Find.MaxBytes
	}
	return &Searcher{cfg: cfg}
}
