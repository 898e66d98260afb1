package search

import (
	"context"
	"fmt"

	"github.com/spillway-dev/spillway/internal/policy"
)

// Entry types a find keeps.
const (
	TypeAny  = "any"
	TypeFile = "file"
	TypeDir  = "dir"
)

// A NameQuery is a search of paths by name.
type NameQuery struct {
	// Glob is a glob with "**": without '/' it matches the name at any
	// depth, with '/' the path relative to Path.
	Glob string
	// Path names the directory to search, relative to the Cwd; "" is
	// the Cwd.
	Path string
	// Type is TypeAny, TypeFile (everything but directories) or TypeDir.
	Type string
	// Limit bounds the paths shown; 0 takes the configured limit.
	Limit int
}

// Names is what a find found.
type Names struct {
	// Lines are the paths found, sorted, a directory's ending in '/'.
	Lines
	// Limit is the limit applied; LimitReached: more paths exist.
	Limit        int
	LimitReached bool
	// Total, when LimitReached, counts the paths that match: all of them
	// when TotalExact, else a lower bound. Past the limit the walk goes on
	// counting up to twice the limit, as far as the next call a notice
	// proposes (limit=2×) would read anyway, and no further.
	Total      int
	TotalExact bool
}

// Find lists the paths whose name or relative path matches a glob
// (docs/tools.md find), sorted, directories ending in '/'.
func (s *Searcher) Find(ctx context.Context, q NameQuery) (Names, error) {
	fail := func(format string, args ...any) (Names, error) {
		return Names{}, fmt.Errorf("find: "+format, args...)
	}
	typ := q.Type
	if typ == "" {
		typ = TypeAny
	}
	glob, err := parseGlob(q.Glob, false)
	if err != nil {
		return fail("%v", err)
	}
	root, err := s.resolve(q.Path) // --root
	if err != nil {
		return Names{}, fmt.Errorf("find: %w", err)
	}
	fi, err := statRoot("find", shownArg(q.Path), root)
	if err != nil {
		return Names{}, err
	}
	if !fi.IsDir() {
		return fail("%s is a file, not a directory: pass the directory to search as path", shownArg(q.Path))
	}

	lim := s.cfg.Find
	limit := policy.Limit(q.Limit, lim.MaxLines)
	rep := newReport("find", lim.MaxBytes, lim.MaxTokens, s.cfg.Spill)
	base := displayBase(s.cfg.Cwd, root)
	count, reached := 0, false
	more, exact := 0, true // paths past the limit; whether the walk saw them all
	var rootErr error
	keep := func(e Entry) bool {
		switch typ {
		case TypeFile:
			if e.IsDir() {
				return false
			}
		case TypeDir:
			if !e.IsDir() {
				return false
			}
		}
		return glob.match(e.Rel)
	}
	visit := func(e Entry, _ struct{}) bool {
		if e.Err != nil {
			if e.Rel == "" {
				rootErr = e.Err
				return false
			}
			if reached {
				// Unread, it may hold more: the total is a lower bound.
				exact = false
				return true
			}
			rep.skip(base+e.Rel+"/", e.Err)
			return true
		}
		if count >= limit {
			reached = true
			if s.cfg.FindNoTotal {
				return false
			}
			more++
			if count+more > 2*limit {
				exact = false
				return false
			}
			return true
		}
		count++
		p := cleanPath(base + e.Rel)
		if e.IsDir() {
			p += "/"
		}
		rep.add(p)
		return true
	}
	opt := WalkOptions{Workers: s.cfg.Workers, Dirs: typ != TypeFile, Keep: keep, Root: s.cfg.Root}
	if err := Walk[struct{}](ctx, root, opt, nil, visit); err != nil {
		return fail("stopped before it finished (%v) after %d results", err, count)
	}
	if rootErr != nil {
		return fail("cannot read %s: %v", shownArg(q.Path), unwrapPathError(rootErr))
	}

	names := Names{Lines: rep.finish(), Limit: limit, LimitReached: reached}
	if reached && !s.cfg.FindNoTotal {
		names.Total, names.TotalExact = count+more, exact
	}
	return names, nil
}
