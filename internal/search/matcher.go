package search

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// A Matcher decides which lines match a grep pattern. It scans a buffer
// for the literals the pattern requires with bytes.Index and runs the full
// regular expression only on the lines where they occur. A Matcher is
// safe for concurrent use; each goroutine scans with its own prefilter.
type Matcher struct {
	re   *regexp.Regexp
	lits Literals
	// primary holds the strings of lits.Required[0], extra the others.
	primary [][]byte
	extra   [][][]byte
	// finders look for the primary strings in a buffer.
	finders []finder
	// maxLit is the length of the longest primary string.
	maxLit int
}

// MatchOptions say how a grep pattern is read.
type MatchOptions struct {
	// Literal reads the pattern as a plain string, not RE2.
	Literal bool
	// IgnoreCase matches without regard to case.
	IgnoreCase bool
}

// Compile parses a grep pattern: RE2 syntax (Go's regexp), or a plain
// string with opt.Literal. A bad pattern's error quotes the parse error
// and says what to change.
func Compile(pattern string, opt MatchOptions) (*Matcher, error) {
	expr := pattern
	if opt.Literal {
		expr = regexp.QuoteMeta(pattern)
	}
	if opt.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, patternError(pattern, err)
	}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, patternError(pattern, err)
	}
	m := &Matcher{re: re, lits: ExtractLiterals(tree.Simplify())}
	for i, set := range m.lits.Required {
		bs := make([][]byte, len(set))
		for j, s := range set {
			bs[j] = []byte(s)
		}
		if i == 0 {
			m.primary = bs
			m.finders = newFinders(bs)
			for _, b := range bs {
				m.maxLit = max(m.maxLit, len(b))
			}
		} else {
			m.extra = append(m.extra, bs)
		}
	}
	return m, nil
}

// patternError explains a pattern that RE2 cannot parse.
func patternError(pattern string, err error) error {
	msg := fmt.Sprintf("invalid regex %q: %v", pattern, err)
	switch {
	case strings.Contains(pattern, "(?="), strings.Contains(pattern, "(?!"),
		strings.Contains(pattern, "(?<="), strings.Contains(pattern, "(?<!"):
		msg += ". RE2 (Go's regexp) has no lookaround (lookahead or lookbehind); match the surrounding text instead, or set literal=true to search for the string as is"
	case backrefRE.MatchString(pattern):
		msg += ". RE2 (Go's regexp) has no backreferences; repeat the group instead, or set literal=true to search for the string as is"
	default:
		msg += ". Fix the pattern (RE2 syntax), or set literal=true to search for the string as is"
	}
	return fmt.Errorf("%s", msg)
}

var backrefRE = regexp.MustCompile(`\\[1-9]`)

// String returns the regular expression the Matcher runs.
func (m *Matcher) String() string { return m.re.String() }

// Literals returns what the Matcher's prefilter scans for.
func (m *Matcher) Literals() Literals { return m.lits }

// matchLine reports whether line (without its '\n') matches. low is the
// line as the prefilter sees it (ASCII-lowered when lits.Fold).
func (m *Matcher) matchLine(line, low []byte) bool {
	if len(m.primary) > 0 && !containsAny(low, m.primary) {
		return false
	}
	return m.matchCandidate(line, low)
}

// matchCandidate is matchLine for a line known to hold a primary literal.
func (m *Matcher) matchCandidate(line, low []byte) bool {
	for _, set := range m.extra {
		if !containsAny(low, set) {
			return false
		}
	}
	if m.lits.Exact {
		return true
	}
	return m.re.Match(line)
}

func containsAny(b []byte, set [][]byte) bool {
	for _, s := range set {
		if bytes.Contains(b, s) {
			return true
		}
	}
	return false
}

// A prefilter finds the next position in a buffer where one of the
// primary literals starts. It remembers, per literal, the next occurrence
// found, so each literal's scan moves forward only once over a buffer.
type prefilter struct {
	lits []finder
	next []int // per literal: next occurrence ≥ the last query, or -1 for none
	buf  []byte
}

func (p *prefilter) reset(lits []finder, buf []byte) {
	p.lits, p.buf = lits, buf
	p.next = p.next[:0]
	for range lits {
		p.next = append(p.next, -2) // unknown
	}
}

// find returns the first position ≥ from where a literal starts, or -1.
func (p *prefilter) find(from int) int {
	if len(p.lits) == 1 {
		if i := p.lits[0].index(p.buf[from:]); i >= 0 {
			return from + i
		}
		return -1
	}
	best := -1
	for i := range p.lits {
		n := p.next[i]
		if n == -1 {
			continue
		}
		if n < from {
			n = -1
			if k := p.lits[i].index(p.buf[from:]); k >= 0 {
				n = from + k
			}
			p.next[i] = n
			if n < 0 {
				continue
			}
		}
		if best < 0 || n < best {
			best = n
		}
	}
	return best
}
