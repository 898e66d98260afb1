package search

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/spillway-dev/spillway/output"
)

// A globFilter matches walk-relative paths against a doublestar glob: a
// glob without '/' matches the base name at any depth, a glob with '/' the
// whole path relative to the search root.
type globFilter struct {
	pat    string
	base   bool
	negate bool // "!glob" (grep only): the paths that do not match
}

// Limits on a glob, checked before it is parsed or matched. A glob is
// matched against every name a walk meets, and the matcher tries the
// alternatives of each {a,b} group in turn, backtracking: k groups of two
// are 2^k tries of one name (measured: 18 groups, 0.2 s a name; 40 would
// take days). A path is at most 4 KiB on Linux (PATH_MAX), so no useful
// glob is longer.
const (
	MaxGlobBytes = 4 << 10
	// MaxGlobAlternatives bounds the product of the alternatives of a
	// glob's {…} groups (nested ones multiply too): the most ways the
	// matcher may try to match one name, some 60 µs a name at worst.
	// A real glob has a few (*.{go,ts,js,py}: 4).
	MaxGlobAlternatives = 64
)

// checkGlobLimits refuses a glob past MaxGlobBytes or
// MaxGlobAlternatives, by one linear scan.
func checkGlobLimits(glob string) error {
	if len(glob) > MaxGlobBytes {
		return fmt.Errorf("the glob is %s, over the %s limit on a glob (MaxGlobBytes): match a shorter part of the path, e.g. *.go or src/**/*.ts",
			output.FormatSize(int64(len(glob))), output.FormatSize(MaxGlobBytes))
	}
	product := 1
	var alts []int // the alternatives counted so far in each open group
	for i := 0; i < len(glob); i++ {
		switch glob[i] {
		case '\\':
			i++
		case '[':
			// A class: its braces and commas are characters.
			j := i + 1
			if j < len(glob) && (glob[j] == '^' || glob[j] == '!') {
				j++
			}
			j++ // a ']' first is a character of the class
			for j < len(glob) && glob[j] != ']' {
				if glob[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(glob) {
				i = j
			}
		case '{':
			alts = append(alts, 1)
		case ',':
			if len(alts) > 0 {
				alts[len(alts)-1]++
			}
		case '}':
			if len(alts) > 0 {
				product = min(product*alts[len(alts)-1], MaxGlobAlternatives+1)
				alts = alts[:len(alts)-1]
			}
		}
	}
	if product > MaxGlobAlternatives {
		return fmt.Errorf("the glob's {…} groups give more than %d combinations to try on every name, the limit on a glob (MaxGlobAlternatives): use fewer groups, or search once per group", MaxGlobAlternatives)
	}
	return nil
}

// parseGlob checks a glob parameter; "" gives a nil filter that keeps
// everything. allowNegate accepts a leading '!'.
func parseGlob(glob string, allowNegate bool) (*globFilter, error) {
	if glob == "" {
		return nil, nil
	}
	if err := checkGlobLimits(glob); err != nil {
		return nil, err
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
