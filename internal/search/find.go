package search

import (
	"context"
	"fmt"
	"strings"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/tool"
)

// Entry types a find keeps.
const (
	TypeAny  = "any"
	TypeFile = "file"
	TypeDir  = "dir"
)

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

// Find lists the paths whose name or relative path matches the glob of a
// find call (docs/tools.md find), sorted, directories ending in '/'; a
// glob "name/" finds directories, as in ignore files. A parameter out of
// its bounds is an error that says so.
func (s *Searcher) Find(ctx context.Context, in tool.FindInput) (Names, error) {
	fail := func(format string, args ...any) (Names, error) {
		return Names{}, fmt.Errorf("find: "+format, args...)
	}
	typ := in.Type
	if typ == "" {
		typ = TypeAny
	}
	pattern := in.Pattern
	if len(pattern) > 1 && strings.HasSuffix(pattern, "/") {
		pattern = strings.TrimSuffix(pattern, "/")
		if typ == TypeFile {
			return fail("pattern %q ends in / (directories) but type is file", in.Pattern)
		}
		typ = TypeDir
	}
	glob, err := parseGlob(pattern, false)
	if err != nil {
		return fail("%v", err)
	}
	root, err := s.resolve(in.Path) // --root
	if err != nil {
		return Names{}, fmt.Errorf("find: %w", err)
	}
	fi, err := statRoot("find", shownArg(in.Path), root)
	if err != nil {
		return Names{}, err
	}
	if !fi.IsDir() {
		return fail("%s is a file, not a directory: pass the directory to search as path", shownArg(in.Path))
	}
	hide, err := s.hider("find", shownArg(in.Path), root, false)
	if err != nil {
		return Names{}, err
	}

	lim := s.cfg.Find
	limit := policy.Limit(in.Limit, lim.Limit)
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
		if e.Hidden != "" {
			if !reached {
				rep.hide(e.Hidden)
			}
			return true
		}
		if count >= limit {
			reached = true
			if s.cfg.Find.NoTotal {
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
	opt := WalkOptions{Workers: s.cfg.Workers, Dirs: typ != TypeFile, Keep: keep, Root: s.cfg.Root, Hide: hide}
	if err := Walk[struct{}](ctx, root, opt, nil, visit); err != nil {
		return fail("stopped before it finished (%v) after %d results", err, count)
	}
	if rootErr != nil {
		return fail("cannot read %s: %v", shownArg(in.Path), unwrapPathError(rootErr))
	}

	names := Names{Lines: rep.finish(), Limit: limit, LimitReached: reached}
	if reached && !s.cfg.Find.NoTotal {
		names.Total, names.TotalExact = count+more, exact
	}
	return names, nil
}
