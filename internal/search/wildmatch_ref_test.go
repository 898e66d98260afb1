package search

// gitDowild and gitStarMatch are a verbatim port of git's wildmatch.c,
// kept as the reference that FuzzWildmatch compares wildmatch with.

import "strings"

func gitDowild(pat string, pi int, text string, ti int) int {
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
			r, npi, nti := gitStarMatch(pat, pi, text, ti)
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
func gitStarMatch(pat string, pi int, text string, ti int) (int, int, int) {
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
			if pi < len(pat) && pat[pi] == '/' && gitDowild(pat, pi+1, text, ti) == wmMatch {
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
			pc := pat[pi]
			for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != pc {
				ti++
			}
			if ti >= len(text) || text[ti] != pc {
				return wmNoMatch, 0, 0
			}
			tc = text[ti]
		}
		if m := gitDowild(pat, pi, text, ti); m != wmNoMatch {
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
