package search

import "strings"

// Results of dowild, as in git's wildmatch.c. The two abort codes let a
// failed sub-match stop the enclosing "*" loops early, which keeps the
// matcher polynomial on patterns such as "*a*a*a*a*b".
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
	// wmContinue tells dowild to go on from the positions starMatch gives.
	wmContinue
)

// wildmatch reports whether text matches the gitignore glob pat, with git's
// WM_PATHNAME semantics: "*", "?" and bracket expressions never match '/';
// "**" between slashes (or at either end) matches any number of directories;
// "\" quotes the next byte; a pattern ending in a lone "\" matches nothing.
// It is a port of git's wildmatch.c (case-sensitive).
func wildmatch(pat, text string) bool {
	return dowild(pat, 0, text, 0) == wmMatch
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

func dowild(pat string, pi int, text string, ti int) int {
	for ; pi < len(pat); pi, ti = pi+1, ti+1 {
		pc := pat[pi]
		if ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		var tc byte
		if ti < len(text) {
			tc = text[ti]
		}
		switch pc {
		case '\\':
			// The next byte is literal; a trailing "\" matches nothing.
			pi++
			if pi >= len(pat) || tc != pat[pi] {
				return wmNoMatch
			}
		case '?':
			if tc == '/' {
				return wmNoMatch
			}
		case '*':
			r, npi, nti := starMatch(pat, pi, text, ti)
			if r != wmContinue {
				return r
			}
			// "*/": pat[npi] and text[nti] are both '/'; the loop's
			// increment steps past them.
			pi, ti = npi, nti
		case '[':
			np, r := bracketMatch(pat, pi, tc)
			if r != wmMatch {
				return r
			}
			pi = np
		default:
			if tc != pc {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// starMatch handles a run of '*' starting at pat[pi]. It returns the
// result, or wmContinue with the positions of a '/' in pat and of the next
// '/' in text when a single '*' is followed by '/' (the '*' matches the rest
// of the current path component).
func starMatch(pat string, pi int, text string, ti int) (int, int, int) {
	pi, matchSlash, r := starRun(pat, pi, text, ti)
	if r != wmContinue {
		return r, 0, 0
	}
	if pi == len(pat) {
		// A trailing "**" matches everything, a trailing "*" only the
		// rest of one path component.
		if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
			return wmNoMatch, 0, 0
		}
		return wmMatch, 0, 0
	}
	if !matchSlash && pat[pi] == '/' {
		slash := strings.IndexByte(text[ti:], '/')
		if slash < 0 {
			return wmNoMatch, 0, 0
		}
		return wmContinue, pi, ti + slash
	}
	return starScan(pat, pi, text, ti, matchSlash), 0, 0
}

// starRun steps past the run of '*' at pat[pi]. It returns the index
// after the run and whether the run is a "**" that crosses '/' (a whole
// path component of the pattern), with wmMatch when a "**/" matches text
// from ti with no directory at all, else wmContinue.
func starRun(pat string, pi int, text string, ti int) (int, bool, int) {
	pi++
	if pi >= len(pat) || pat[pi] != '*' {
		return pi, false, wmContinue
	}
	prev := pi - 2 // the byte before the first '*'
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	if (prev >= 0 && pat[prev] != '/') || !endsComponent(pat, pi) {
		return pi, false, wmContinue
	}
	// "**/" may match no directory at all.
	if pi < len(pat) && pat[pi] == '/' && dowild(pat, pi+1, text, ti) == wmMatch {
		return pi, true, wmMatch
	}
	return pi, true, wmContinue
}

// endsComponent reports whether pat[pi:] ends a path component: it is
// empty, or starts with '/' or a quoted '/'.
func endsComponent(pat string, pi int) bool {
	return pi == len(pat) || pat[pi] == '/' || (pat[pi] == '\\' && pi+1 < len(pat) && pat[pi+1] == '/')
}

// starScan matches the rest of the pattern, pat[pi:], at each position of
// text from ti that a star can reach (past '/' only when matchSlash).
func starScan(pat string, pi int, text string, ti int, matchSlash bool) int {
	for ti < len(text) {
		tc := text[ti]
		if !isGlobSpecial(pat[pi]) {
			var r int
			if ti, r = skipToLiteral(text, ti, pat[pi], matchSlash); r != wmContinue {
				return r
			}
			tc = text[ti]
		}
		if m := dowild(pat, pi, text, ti); m != wmNoMatch {
			if !matchSlash || m != wmAbortToStarStar {
				return m
			}
		} else if !matchSlash && tc == '/' {
			return wmAbortToStarStar
		}
		ti++
	}
	return wmAbortAll
}

// skipToLiteral moves ti to the next occurrence in text of the literal pc
// that follows a star, and returns wmContinue; or, when the star cannot
// reach one, the result of trying every position: wmAbortAll at the end
// of text, wmAbortToStarStar at a '/' that the star cannot cross. (git
// returns wmNoMatch there, which makes patterns such as "*a*a*a*a*a*a*b"
// exponential.)
func skipToLiteral(text string, ti int, pc byte, matchSlash bool) (int, int) {
	for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != pc {
		ti++
	}
	switch {
	case ti >= len(text):
		return ti, wmAbortAll
	case text[ti] != pc:
		return ti, wmAbortToStarStar
	}
	return ti, wmContinue
}

// bracketMatch matches tc against the bracket expression at pat[pi] ('[').
// It returns the index of the closing ']' and wmMatch, or a failure code.
func bracketMatch(pat string, pi int, tc byte) (int, int) {
	pi++
	pc := byteAt(pat, pi)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		pi++
		pc = byteAt(pat, pi)
	}
	var prev byte
	matched := false
	for {
		if pc == 0 {
			return pi, wmAbortAll
		}
		var in, ok bool
		if pi, pc, in, ok = bracketMember(pat, pi, pc, prev, tc); !ok {
			return pi, wmAbortAll
		}
		matched = matched || in
		prev = pc
		pi++
		pc = byteAt(pat, pi)
		if pc == ']' {
			break
		}
	}
	if matched == negated || tc == '/' {
		return pi, wmNoMatch
	}
	return pi, wmMatch
}

// byteAt returns pat[i], or 0 past its end.
func byteAt(pat string, i int) byte {
	if i < len(pat) {
		return pat[i]
	}
	return 0
}

// bracketMember matches tc against the member of a bracket expression
// that starts at pat[pi] (the byte pc), after the member prev (0 when
// none, or when a range cannot start from it). It returns the index of
// the member's last byte, what a '-' after it ranges from (0 for
// nothing), whether tc is in it, and false when the expression is
// malformed.
func bracketMember(pat string, pi int, pc, prev, tc byte) (int, byte, bool, bool) {
	switch {
	case pc == '\\':
		pi++
		pc = byteAt(pat, pi)
		return pi, pc, pc != 0 && tc == pc, pc != 0
	case pc == '-' && prev != 0 && byteAt(pat, pi+1) != 0 && byteAt(pat, pi+1) != ']':
		return bracketRange(pat, pi+1, prev, tc)
	case pc == '[' && byteAt(pat, pi+1) == ':':
		return bracketClass(pat, pi, tc)
	}
	return pi, pc, tc == pc, true
}

// bracketRange matches tc against the range from lo to the byte at
// pat[pi] (the byte after '-', perhaps quoted). A range cannot start
// another, so what a '-' after it ranges from is 0.
func bracketRange(pat string, pi int, lo, tc byte) (int, byte, bool, bool) {
	hi := byteAt(pat, pi)
	if hi == '\\' {
		pi++
		if hi = byteAt(pat, pi); hi == 0 {
			return pi, 0, false, false
		}
	}
	return pi, 0, tc >= lo && tc <= hi, true
}

// bracketClass matches tc against the POSIX class "[:name:]" at pat[pi].
// Without its ":]", the '[' is an ordinary member.
func bracketClass(pat string, pi int, tc byte) (int, byte, bool, bool) {
	s := pi + 2
	end := s
	for end < len(pat) && pat[end] != ']' {
		end++
	}
	if end >= len(pat) {
		return end, 0, false, false
	}
	n := end - s - 1
	if n < 0 || pat[end-1] != ':' {
		return pi, '[', tc == '[', true
	}
	in, known := charClass(pat[s:s+n], tc)
	return end, 0, in, known
}

// charClass reports whether c is in the POSIX class name (ASCII only, as
// git's sane_ctype), and whether the class name is known.
func charClass(name string, c byte) (bool, bool) {
	isUpper := c >= 'A' && c <= 'Z'
	isLower := c >= 'a' && c <= 'z'
	isDigit := c >= '0' && c <= '9'
	isAlpha := isUpper || isLower
	isGraph := c > 0x20 && c < 0x7f
	switch name {
	case "alnum":
		return isAlpha || isDigit, true
	case "alpha":
		return isAlpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return isGraph, true
	case "lower":
		return isLower, true
	case "print":
		return isGraph || c == ' ', true
	case "punct":
		return isGraph && !isAlpha && !isDigit, true
	case "space":
		return c == ' ' || c == '\t' || c == '\n' || c == '\r', true
	case "upper":
		return isUpper, true
	case "xdigit":
		return isDigit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
