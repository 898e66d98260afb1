package output

import (
	"regexp"
	"strings"
)

// The shape of a line is the line with what varies between log lines of
// one kind made general: every run of digits is <N>, every word of hex
// digits (six or more, with a digit and a letter: a commit, a hash, an
// address) is <H>, every run of two spaces or more is two spaces, and
// every run of blanks with a tab is one tab: columns padded to line up. "compiling
// module 688 ok" and "compiling module 39056 ok" have one shape,
// "compiling module <N> ok". A line longer than maxShapeLine has no
// shape: it is shown, or left out, as itself.

// maxShapeLine bounds the bytes of a line that is given a shape.
const maxShapeLine = 1000

// Tokens of a shape other than its literal bytes.
const (
	shapeNumber = "<N>"
	shapeHex    = "<H>"
)

// minHexWord is the shortest word of hex digits that is an id.
const minHexWord = 6

// shapeHash is the FNV-1a hash of the shape of line, computed without
// building it; ok is false for a line too long to have one. It walks the
// line as walkShape does, without a call for each part: it is what a
// scan spends on every line.
func shapeHash(line []byte) (h uint64, ok bool) {
	if len(line) > maxShapeLine {
		return 0, false
	}
	h = fnvOffset
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			j, tab := blankRun(line, i)
			if tok := blankToken(j-i, tab); tok != 0 {
				h = hashToken(h, tok)
			} else {
				h = (h ^ ' ') * fnvPrime
			}
			i = j
		case isWordByte(c) && (i == 0 || !isWordByte(line[i-1])):
			j := wordEnd(line, i)
			if isHexID(line[i:j]) {
				h = hashToken(h, 'H')
				i = j
				continue
			}
			for i < j {
				if !isDigit(line[i]) {
					h = (h ^ uint64(line[i])) * fnvPrime
					i++
					continue
				}
				i = digits(line, i)
				h = hashToken(h, 'N')
			}
		default:
			h = (h ^ uint64(c)) * fnvPrime
			i++
		}
	}
	return h, true
}

// FNV-1a's 64-bit constants.
const fnvOffset, fnvPrime = 14695981039346656037, 1099511628211

// hashToken adds a token of a shape to an FNV-1a hash: its letter and a
// byte no literal UTF-8 holds.
func hashToken(h uint64, t byte) uint64 { return ((h^uint64(t))*fnvPrime ^ 0xff) * fnvPrime }

// blankRun returns the end of the run of spaces and tabs at line[i], and
// whether a tab is among them.
func blankRun(line []byte, i int) (end int, tab bool) {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		tab = tab || line[i] == '\t'
		i++
	}
	return i, tab
}

// blankToken is the token of a run of n blanks: '\t' for one with a tab,
// ' ' for two spaces or more, and 0 for a lone space, which is a literal.
func blankToken(n int, tab bool) byte {
	switch {
	case tab:
		return '\t'
	case n > 1:
		return ' '
	}
	return 0
}

// wordEnd returns the end of the word at line[i].
func wordEnd(line []byte, i int) int {
	for i < len(line) && isWordByte(line[i]) {
		i++
	}
	return i
}

// walkShape calls f for each part of the shape of line in order: a
// literal run (tok 0), or a token: 'N' a number, 'H' a hex id, ' ' a run
// of two spaces or more, '\t' a run of blanks with a tab.
func walkShape(line []byte, f func(tok byte, lit []byte)) {
	lit := 0 // start of the pending literal run
	flush := func(i int) {
		if i > lit {
			f(0, line[lit:i])
		}
	}
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			j, tab := blankRun(line, i)
			tok := blankToken(j-i, tab)
			if tok == 0 {
				i++ // one space is a literal
				continue
			}
			flush(i)
			f(tok, nil)
			i, lit = j, j
		case isWordByte(c) && (i == 0 || !isWordByte(line[i-1])):
			// The start of a word: a hex id as a whole, else its digit
			// runs one by one.
			j := wordEnd(line, i)
			if isHexID(line[i:j]) {
				flush(i)
				f('H', nil)
				i, lit = j, j
				continue
			}
			for i < j {
				if !isDigit(line[i]) {
					i++
					continue
				}
				k := digits(line, i)
				flush(i)
				f('N', nil)
				i, lit = k, k
			}
		default:
			i++
		}
	}
	flush(len(line))
}

// isHexID reports whether a word is an id in hex: lower-case hex digits
// only, at least minHexWord of them, a digit and a letter among them.
func isHexID(w []byte) bool {
	if len(w) < minHexWord {
		return false
	}
	digit, letter := false, false
	for _, c := range w {
		switch {
		case isDigit(c):
			digit = true
		case 'a' <= c && c <= 'f':
			letter = true
		default:
			return false
		}
	}
	return digit && letter
}

// shapeText is the shape of line as a notice shows it: "compiling
// module <N> ok".
func shapeText(line []byte) string {
	var b strings.Builder
	walkShape(line, func(tok byte, lit []byte) {
		switch tok {
		case 0:
			b.Write(lit)
		case 'N':
			b.WriteString(shapeNumber)
		case 'H':
			b.WriteString(shapeHex)
		case ' ':
			b.WriteString("  ")
		default:
			b.WriteByte(tok)
		}
	})
	return b.String()
}

// shapePattern is an RE2 expression that matches every line of the shape
// of line: its literal parts quoted, a number [0-9]+, a hex id
// [0-9a-f]{6,}, two spaces or more "  +" and blanks with a tab [ \t]+,
// anchored at both ends. It also matches
// the rare line that holds an all-digit or all-letter hex word where the
// shape has an id.
func shapePattern(line []byte) string {
	var b strings.Builder
	b.WriteByte('^')
	walkShape(line, func(tok byte, lit []byte) {
		switch tok {
		case 0:
			b.WriteString(regexp.QuoteMeta(string(lit)))
		case 'N':
			b.WriteString("[0-9]+")
		case 'H':
			b.WriteString("[0-9a-f]{6,}")
		case ' ':
			b.WriteString("  +")
		default:
			b.WriteString(`[ \t]+`)
		}
	})
	b.WriteByte('$')
	return b.String()
}
