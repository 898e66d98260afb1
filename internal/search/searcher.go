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
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/tool"
)

// Config configures a Searcher.
type Config struct {
	// Cwd is the session's working directory: relative paths resolve
	// against it, and results under it are shown relative to it.
	Cwd string
	// Grep and Find are the policies of the grep and find tools; a zero
	// limit takes the default docs/tools.md states. Their NoTotal leaves
	// out what a search that stopped at its limit knows of the total
	// (Found.AtLeast, Names.Total): find then stops at the limit instead
	// of counting on.
	Grep tool.GrepPolicy
	Find tool.FindPolicy
	// Spill keeps the full output of a result cut by its byte limit; nil
	// keeps none.
	Spill *spill.Store
	// Workers is the number of goroutines of a search; default GOMAXPROCS.
	Workers int
	// Root, when set, confines grep and find to a directory tree (the
	// spill directory allowed).
	Root *confine.Root
	// Hide, when set, is asked of each absolute path a search would show
	// (contents: for grep, which reads it; else for find, which names
	// it): what it returns ("" for nothing) keeps the path out, counted
	// in the result and said; a path parameter it hides is an error.
	Hide func(path string, contents bool) string
}

// A Searcher runs the grep and find calls of one session. It is safe for
// concurrent use.
type Searcher struct {
	cfg Config
}

// The limits of a Config that sets none: spillway.DefaultPolicy's.
var (
	defaultGrep = tool.GrepPolicy{Limit: 100, MaxBytes: 50 << 10, MaxLineChars: 500}
	defaultFind = tool.FindPolicy{Limit: 1000, MaxBytes: 50 << 10}
)

// New returns a Searcher; zero limits take the defaults.
func New(cfg Config) *Searcher {
	if cfg.Grep.Limit <= 0 {
		cfg.Grep.Limit = defaultGrep.Limit
	}
	if cfg.Grep.MaxBytes <= 0 {
		cfg.Grep.MaxBytes = defaultGrep.MaxBytes
	}
	if cfg.Grep.MaxLineChars <= 0 {
		cfg.Grep.MaxLineChars = defaultGrep.MaxLineChars
	}
	if cfg.Find.Limit <= 0 {
		cfg.Find.Limit = defaultFind.Limit
	}
	if cfg.Find.MaxBytes <= 0 {
		cfg.Find.MaxBytes = defaultFind.MaxBytes
	}
	return &Searcher{cfg: cfg}
}
