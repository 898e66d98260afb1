package search

import (
	"encoding/binary"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of the literal analysis.
const (
	// maxExact bounds a set of exact strings (the product of a
	// concatenation, the union of an alternation).
	maxExact = 16
	// maxAlternatives bounds the literal set the prefilter scans for.
	maxAlternatives = 8
	// maxClass bounds the characters of a class that is expanded.
	maxClass = 4
)

// Literals is what a regular expression requires of every text it matches.
// The strings are to be looked for in text that was ASCII-lowered when
// Fold is set (then every literal is ASCII-lowered too, and the bytes of
// non-ASCII characters are compared as they are).
type Literals struct {
	// Required holds sets of strings: every match contains at least one
	// string of each set. The first set is the best one to scan for; a
	// nil Required means nothing is required (every line is a candidate).
	Required [][]string
	// Exact is true when the expression matches exactly the strings of
	// Required[0], anywhere in a line: finding one is a match.
	Exact bool
	// Fold is true when the expression has case-insensitive parts.
	Fold bool
}

// ExtractLiterals analyses a parsed regular expression (syntax.Perl flags,
// simplified or not). When the expression has case-insensitive parts, it
// prefers literals from its case-sensitive parts (they need no lowering of
// the text) if they are as long as the case-insensitive ones, or 4 bytes.
func ExtractLiterals(re *syntax.Regexp) Literals {
	if !hasFold(re) {
		return literalsOf(re, extractor{})
	}
	exact := literalsOf(re, extractor{opaqueFold: true})
	folded := literalsOf(re, extractor{fold: true})
	if len(exact.Required) > 0 {
		n := minLen(exact.Required[0])
		if len(folded.Required) == 0 || n >= 4 || n >= minLen(folded.Required[0]) {
			return exact
		}
	}
	return folded
}

func literalsOf(re *syntax.Regexp, x extractor) Literals {
	info := x.analyze(re)
	sets := info.allReqs()
	lits := Literals{Fold: x.fold}
	if len(sets) == 0 {
		return lits
	}
	bi := 0
	for i := range sets {
		if betterSet(sets[i], sets[bi]) {
			bi = i
		}
	}
	if len(sets[bi]) > maxAlternatives {
		return lits
	}
	lits.Required = append(lits.Required, sets[bi])
	for i, s := range sets {
		if i != bi && len(s) <= maxAlternatives {
			lits.Required = append(lits.Required, s)
		}
	}
	if info.exact != nil && !info.assert && !info.opaque && len(info.exact) <= maxAlternatives {
		exact := true
		for _, s := range info.exact {
			if s == "" || strings.IndexByte(s, '\n') >= 0 {
				exact = false
			}
		}
		if exact {
			lits.Required = [][]string{dedupe(info.exact)}
			lits.Exact = true
		}
	}
	return lits
}

func hasFold(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase != 0 {
		return true
	}
	return slices.ContainsFunc(re.Sub, hasFold)
}

// litInfo describes what one node of a regexp requires.
type litInfo struct {
	// exact, when non-nil, holds every string the node can match.
	exact []string
	// reqs are sets of strings; every match contains one of each set.
	reqs [][]string
	// assert: the node holds an empty-width assertion (^, $, \b, …), so
	// where its exact strings occur matters.
	assert bool
	// opaque: the node holds a case-insensitive literal that the analysis
	// did not look into, so its exact strings are not the whole match.
	opaque bool
}

// allReqs returns the requirements, counting the exact strings as one.
func (in litInfo) allReqs() [][]string {
	reqs := in.reqs
	if in.exact != nil && !slices.Contains(in.exact, "") {
		reqs = append(slices.Clip(reqs), dedupe(in.exact))
	}
	return reqs
}

// betterSet reports whether a is a better set to scan for than b: its
// shortest string is longer, or as long with fewer strings.
func betterSet(a, b []string) bool {
	ma, mb := minLen(a), minLen(b)
	if ma != mb {
		return ma > mb
	}
	return len(a) < len(b)
}

func minLen(set []string) int {
	m := -1
	for _, s := range set {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

func dedupe(set []string) []string {
	out := slices.Clone(set)
	slices.Sort(out)
	return slices.Compact(out)
}

type extractor struct {
	fold bool // literals are ASCII-lowered
	// opaqueFold treats case-insensitive literals as unknown text, so that
	// every literal found is case-exact.
	opaqueFold bool
}

func (x *extractor) analyze(re *syntax.Regexp) litInfo {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 && x.opaqueFold {
			return litInfo{opaque: true}
		}
		if re.Flags&syntax.FoldCase != 0 {
			var in litInfo
			for _, p := range foldPieces(re.Rune) {
				in.reqs = append(in.reqs, []string{p})
			}
			return in
		}
		s := string(re.Rune)
		if x.fold {
			s = asciiLower(s)
		}
		return litInfo{exact: []string{s}}
	case syntax.OpCharClass:
		return litInfo{exact: x.classStrings(re.Rune)}
	case syntax.OpEmptyMatch:
		return litInfo{exact: []string{""}}
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litInfo{exact: []string{""}, assert: true}
	case syntax.OpCapture:
		return x.analyze(re.Sub[0])
	case syntax.OpQuest:
		sub := x.analyze(re.Sub[0])
		if sub.exact != nil && len(sub.exact) < maxExact {
			return litInfo{exact: append(slices.Clip(sub.exact), ""), assert: sub.assert, opaque: sub.opaque}
		}
		return litInfo{assert: sub.assert, opaque: sub.opaque}
	case syntax.OpStar:
		sub := x.analyze(re.Sub[0])
		return litInfo{assert: sub.assert, opaque: sub.opaque}
	case syntax.OpPlus:
		sub := x.analyze(re.Sub[0])
		return litInfo{reqs: sub.allReqs(), assert: sub.assert, opaque: sub.opaque}
	case syntax.OpRepeat:
		sub := x.analyze(re.Sub[0])
		if re.Min == 1 && re.Max == 1 {
			return sub
		}
		if re.Min == 0 {
			return litInfo{assert: sub.assert, opaque: sub.opaque}
		}
		return litInfo{reqs: sub.allReqs(), assert: sub.assert, opaque: sub.opaque}
	case syntax.OpConcat:
		return x.concat(re.Sub)
	case syntax.OpAlternate:
		return x.alternate(re.Sub)
	}
	// OpAnyChar, OpAnyCharNotNL, OpNoMatch: nothing to require.
	return litInfo{}
}

// concat joins runs of exact children into longer exact strings; every
// run and every child's requirements are required.
func (x *extractor) concat(subs []*syntax.Regexp) litInfo {
	var in litInfo
	run := []string{""}
	whole := true // every child so far joined the run
	for _, sub := range subs {
		si := x.analyze(sub)
		in.assert = in.assert || si.assert
		in.opaque = in.opaque || si.opaque
		in.reqs = append(in.reqs, si.reqs...)
		if si.exact != nil && run != nil && len(run)*len(si.exact) <= maxExact {
			run = cross(run, si.exact)
			continue
		}
		whole = false
		in.reqs = appendExact(in.reqs, run)
		run = si.exact
	}
	if whole {
		in.exact = run
	} else {
		in.reqs = appendExact(in.reqs, run)
	}
	return in
}

func appendExact(reqs [][]string, exact []string) [][]string {
	if exact == nil || slices.Contains(exact, "") {
		return reqs
	}
	return append(reqs, dedupe(exact))
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, s := range a {
		for _, t := range b {
			out = append(out, s+t)
		}
	}
	return out
}

// alternate: exact when every branch is; otherwise each branch's best
// required set, united.
func (x *extractor) alternate(subs []*syntax.Regexp) litInfo {
	var in litInfo
	var exact, union []string
	allExact, allReq := true, true
	for _, sub := range subs {
		si := x.analyze(sub)
		in.assert = in.assert || si.assert
		in.opaque = in.opaque || si.opaque
		if si.exact != nil && allExact {
			exact = append(exact, si.exact...)
		} else {
			allExact = false
		}
		reqs := si.allReqs()
		if len(reqs) == 0 {
			allReq = false
			continue
		}
		best := reqs[0]
		for _, r := range reqs[1:] {
			if betterSet(r, best) {
				best = r
			}
		}
		union = append(union, best...)
	}
	if allExact && len(exact) <= maxExact {
		in.exact = dedupe(exact)
		return in
	}
	if allReq && len(union) <= maxExact {
		in.reqs = [][]string{dedupe(union)}
	}
	return in
}

// classStrings returns the characters of a small class as strings, or nil.
func (x *extractor) classStrings(ranges []rune) []string {
	n := 0
	for i := 0; i+1 < len(ranges); i += 2 {
		n += int(ranges[i+1]-ranges[i]) + 1
		if n > maxClass {
			return nil
		}
	}
	if n == 0 {
		return nil
	}
	var out []string
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			s := string(r)
			if x.fold {
				s = asciiLower(s)
			}
			out = append(out, s)
		}
	}
	return dedupe(out)
}

// foldPieces splits a case-insensitive literal into the longest runs that
// look the same in ASCII-lowered text whatever the case of the match: a
// character whose case variants lower to different bytes (k and the Kelvin
// sign, s and long s, most non-ASCII letters) ends a run.
func foldPieces(runes []rune) []string {
	var pieces []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			pieces = append(pieces, cur.String())
			cur.Reset()
		}
	}
	for _, r := range runes {
		if s, ok := foldInvariant(r); ok {
			cur.WriteString(s)
		} else {
			flush()
		}
	}
	flush()
	return pieces
}

// foldInvariant returns the ASCII-lowered form shared by every case
// variant of r, if they all share one.
func foldInvariant(r rune) (string, bool) {
	want := asciiLower(string(r))
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if asciiLower(string(f)) != want {
			return "", false
		}
	}
	return want, utf8.ValidString(want)
}

// asciiLower lowers the ASCII letters of s and leaves every other byte.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			lowerASCII(b[i:], b[i:])
			return string(b)
		}
	}
	return s
}

// lowerTable maps each byte to its ASCII-lowered form.
var lowerTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// lowerASCII writes src ASCII-lowered into dst (len(dst) >= len(src)),
// eight bytes at a time: a byte from 'A' to 'Z' gets its 0x20 bit set.
func lowerASCII(dst, src []byte) {
	dst = dst[:len(src)]
	const (
		lo7  = 0x7f7f7f7f7f7f7f7f
		high = 0x8080808080808080
		geA  = (0x80 - 'A') * 0x0101010101010101
		gtZ  = (0x80 - 'Z' - 1) * 0x0101010101010101
	)
	i := 0
	for ; i+8 <= len(src); i += 8 {
		x := binary.LittleEndian.Uint64(src[i:])
		h := x & lo7
		// High bit of each byte: ASCII, >= 'A' and not > 'Z'.
		upper := (h + geA) &^ (h + gtZ) &^ x & high
		binary.LittleEndian.PutUint64(dst[i:], x|upper>>2)
	}
	for ; i < len(src); i++ {
		dst[i] = lowerTable[src[i]]
	}
}
