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
	pattern, typ, err := findQuery(in)
	if err != nil {
		return Names{}, fmt.Errorf("find: %w", err)
	}
	glob, err := parseGlob(pattern, false)
	if err != nil {
		return Names{}, fmt.Errorf("find: %v", err)
	}
	root, hide, err := s.findRoot(in.Path)
	if err != nil {
		return Names{}, err
	}
	lim := s.cfg.Find
	f := &findRun{
		typ:     typ,
		glob:    glob,
		limit:   policy.Limit(in.Limit, lim.Limit),
		noTotal: lim.NoTotal,
		rep:     newReport("find", lim.MaxBytes, lim.MaxTokens, s.cfg.Spill),
		base:    displayBase(s.cfg.Cwd, root),
		exact:   true,
	}
	opt := WalkOptions{Workers: s.cfg.Workers, Dirs: typ != TypeFile, Keep: f.keep, Root: s.cfg.Root, Hide: hide}
	if err := Walk[struct{}](ctx, root, opt, nil, f.visit); err != nil {
		return Names{}, fmt.Errorf("find: stopped before it finished (%v) after %d results", err, f.count)
	}
	if f.rootErr != nil {
		return Names{}, fmt.Errorf("find: cannot read %s: %v", shownArg(in.Path), unwrapPathError(f.rootErr))
	}
	return f.names(), nil
}

// findQuery returns the glob and the entry type a find call asks for: a
// pattern "name/" searches for directories.
func findQuery(in tool.FindInput) (pattern, typ string, err error) {
	typ = in.Type
	if typ == "" {
		typ = TypeAny
	}
	pattern = in.Pattern
	if len(pattern) > 1 && strings.HasSuffix(pattern, "/") {
		if typ == TypeFile {
			return "", "", fmt.Errorf("pattern %q ends in / (directories) but type is file", in.Pattern)
		}
		pattern, typ = strings.TrimSuffix(pattern, "/"), TypeDir
	}
	return pattern, typ, nil
}

// findRoot resolves the directory a find walks (the path parameter), and
// what hides entries below it; a file or a path that cannot be read is an
// error that says so.
func (s *Searcher) findRoot(path string) (string, func(string) string, error) {
	root, err := s.resolve(path) // --root
	if err != nil {
		return "", nil, fmt.Errorf("find: %w", err)
	}
	fi, err := statRoot("find", shownArg(path), root)
	if err != nil {
		return "", nil, err
	}
	if !fi.IsDir() {
		return "", nil, fmt.Errorf("find: %s is a file, not a directory: pass the directory to search as path", shownArg(path))
	}
	hide, err := s.hider("find", shownArg(path), root, false)
	if err != nil {
		return "", nil, err
	}
	return root, hide, nil
}

// findRun gathers the paths of one find, in path order.
type findRun struct {
	typ     string
	glob    *globFilter
	limit   int
	noTotal bool // Config.Find.NoTotal: stop at the limit
	rep     *report
	base    string // what a path is shown relative to

	count   int  // paths shown
	reached bool // a path past the limit was met
	more    int  // paths past the limit
	exact   bool // the walk saw every path past the limit
	rootErr error
}

// keep chooses the entries of the type asked for whose path matches.
func (f *findRun) keep(e Entry) bool {
	switch f.typ {
	case TypeFile:
		if e.IsDir() {
			return false
		}
	case TypeDir:
		if !e.IsDir() {
			return false
		}
	}
	return f.glob.match(e.Rel)
}

// visit adds one path the walk yields; false ends the walk.
func (f *findRun) visit(e Entry, _ struct{}) bool {
	if e.Err != nil {
		return f.unread(e)
	}
	if e.Hidden != "" {
		if !f.reached {
			f.rep.hide(e.Hidden)
		}
		return true
	}
	if f.count >= f.limit {
		return f.pastLimit()
	}
	f.count++
	p := cleanPath(f.base + e.Rel)
	if e.IsDir() {
		p += "/"
	}
	f.rep.add(p)
	return true
}

// unread notes a directory that could not be read: the root ends the
// find; another is said to be skipped, or past the limit makes the total
// a lower bound (unread, it may hold more).
func (f *findRun) unread(e Entry) bool {
	switch {
	case e.Rel == "":
		f.rootErr = e.Err
		return false
	case f.reached:
		f.exact = false
	default:
		f.rep.skip(f.base+e.Rel+"/", e.Err)
	}
	return true
}

// pastLimit counts a path past the limit. The walk goes on counting up
// to twice the limit, as far as the next call a notice proposes
// (limit=2×) would read anyway, and no further.
func (f *findRun) pastLimit() bool {
	f.reached = true
	if f.noTotal {
		return false
	}
	f.more++
	if f.count+f.more > 2*f.limit {
		f.exact = false
		return false
	}
	return true
}

// names is what the find found.
func (f *findRun) names() Names {
	names := Names{Lines: f.rep.finish(), Limit: f.limit, LimitReached: f.reached}
	if f.reached && !f.noTotal {
		names.Total, names.TotalExact = f.count+f.more, f.exact
	}
	return names
}
