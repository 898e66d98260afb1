package output

import "unicode/utf8"

// A RuneCarry holds the start of a UTF-8 sequence that a write cut short,
// so that the next write can complete it. The zero value is empty.
type RuneCarry struct {
	b [utf8.UTFMax]byte
	n int
}

// Len reports how many bytes are held.
func (c *RuneCarry) Len() int { return c.n }

// Hold keeps b, the incomplete start of a rune (at most UTFMax-1 bytes).
func (c *RuneCarry) Hold(b []byte) { c.n = copy(c.b[:], b) }

// Reset drops what is held.
func (c *RuneCarry) Reset() { c.n = 0 }

// Resolve completes or rejects the held rune with bytes taken from p and
// returns what is left of p. emit receives the completed character, or
// U+FFFD for each held byte that cannot start one. If p is too short to
// decide, it is held whole and nothing is emitted; at eof an incomplete
// rune is rejected.
func (c *RuneCarry) Resolve(p []byte, eof bool, emit func([]byte)) []byte {
	for c.n > 0 {
		var buf [2 * utf8.UTFMax]byte
		k := copy(buf[:], c.b[:c.n])
		take := copy(buf[k:], p)
		b := buf[:k+take]
		if !utf8.FullRune(b) && !eof {
			c.n = copy(c.b[:], b)
			return p[len(p):]
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			emit(replacementChar)
			// Drop one held byte and retry with the rest.
			copy(c.b[:], c.b[1:c.n])
			c.n--
			continue
		}
		emit(b[:size])
		used := size - c.n // bytes of p that completed the rune
		c.n = 0
		return p[used:]
	}
	return p
}
