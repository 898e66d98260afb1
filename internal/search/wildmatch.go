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
	matchSlash := false
	pi++
	if pi < len(pat) && pat[pi] == '*' {
		prev := pi - 2 // the byte before the first '*'
		for pi < len(pat) && pat[pi] == '*' {
			pi++
		}
		if (prev < 0 || pat[prev] == '/') &&
			(pi == len(pat) || pat[pi] == '/' || (pat[pi] == '\\' && pi+1 < len(pat) && pat[pi+1] == '/')) {
			// "**/" may match no directory at all.
			if pi < len(pat) && pat[pi] == '/' && dowild(pat, pi+1, text, ti) == wmMatch {
				return wmMatch, 0, 0
			}
			matchSlash = true
		}
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
	for ti < len(text) {
		tc := text[ti]
		if !isGlobSpecial(pat[pi]) {
			// Skip to the next occurrence of the literal that follows.
			// Not finding it returns what trying every position would
			// (git returns wmNoMatch here, which makes patterns such as
			// "*a*a*a*a*a*a*b" exponential).
			pc := pat[pi]
			for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != pc {
				ti++
			}
			if ti >= len(text) {
				return wmAbortAll, 0, 0
			}
			if text[ti] != pc { // stopped at a '/' that '*' cannot cross
				return wmAbortToStarStar, 0, 0
			}
			tc = text[ti]
		}
		if m := dowild(pat, pi, text, ti); m != wmNoMatch {
			if !matchSlash || m != wmAbortToStarStar {
				return m, 0, 0
			}
		} else if !matchSlash && tc == '/' {
			return wmAbortToStarStar, 0, 0
		}
		ti++
	}
	return wmAbortAll, 0, 0
}

// bracketMatch matches tc against the bracket expression at pat[pi] ('[').
// It returns the index of the closing ']' and wmMatch, or a failure code.
func bracketMatch(pat string, pi int, tc byte) (int, int) {
	at := func(i int) byte {
		if i < len(pat) {
			return pat[i]
		}
		return 0
	}
	pi++
	pc := at(pi)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		pi++
		pc = at(pi)
	}
	var prev byte
	matched := false
	for {
		if pc == 0 {
			return pi, wmAbortAll
		}
		switch {
		case pc == '\\':
			pi++
			pc = at(pi)
			if pc == 0 {
				return pi, wmAbortAll
			}
			if tc == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && at(pi+1) != 0 && at(pi+1) != ']':
			pi++
			pc = at(pi)
			if pc == '\\' {
				pi++
				pc = at(pi)
				if pc == 0 {
					return pi, wmAbortAll
				}
			}
			if tc <= pc && tc >= prev {
				matched = true
			}
			pc = 0 // a range cannot start another range
		case pc == '[' && at(pi+1) == ':':
			s := pi + 2
			pi = s
			for pi < len(pat) && pat[pi] != ']' {
				pi++
			}
			if pi >= len(pat) {
				return pi, wmAbortAll
			}
			n := pi - s - 1
			if n < 0 || pat[pi-1] != ':' {
				// No ":]": the '[' is an ordinary member.
				pi = s - 2
				pc = '['
				if tc == pc {
					matched = true
				}
				break
			}
			ok, known := charClass(pat[s:s+n], tc)
			if !known {
				return pi, wmAbortAll
			}
			if ok {
				matched = true
			}
			pc = 0
		default:
			if tc == pc {
				matched = true
			}
		}
		prev = pc
		pi++
		pc = at(pi)
		if pc == ']' {
			break
		}
	}
	if matched == negated || tc == '/' {
		return pi, wmNoMatch
	}
	return pi, wmMatch
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
