package search

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// A globFilter matches walk-relative paths against a doublestar glob: a
// glob without '/' matches the base name at any depth, a glob with '/' the
// whole path relative to the search root.
type globFilter struct {
	pat    string
	base   bool
	negate bool // "!glob" (grep only): the paths that do not match
}

// parseGlob checks a glob parameter; "" gives a nil filter that keeps
// everything. allowNegate accepts a leading '!'.
func parseGlob(glob string, allowNegate bool) (*globFilter, error) {
	if glob == "" {
		return nil, nil
	}
	f := &globFilter{}
	if allowNegate && strings.HasPrefix(glob, "!") {
		f.negate = true
		glob = glob[1:]
	}
	glob = strings.TrimPrefix(glob, "./")
	glob = strings.TrimPrefix(glob, "/")
	if glob == "" || !doublestar.ValidatePattern(glob) {
		return nil, fmt.Errorf("invalid glob %q: use *, **, ?, [abc] and {a,b}, e.g. *.go or src/**/*.ts", glob)
	}
	f.pat = glob
	f.base = !strings.Contains(glob, "/")
	return f, nil
}

func (f *globFilter) match(rel string) bool {
	if f == nil {
		return true
	}
	name := rel
	if f.base {
		name = rel[strings.LastIndexByte(rel, '/')+1:]
	}
	ok, _ := doublestar.Match(f.pat, name)
	return ok != f.negate
}
