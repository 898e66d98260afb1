package output

import "unicode/utf8"

// A BinaryRule decides, from the start of a stream, whether the stream is
// binary. The zero rule is spillway's own (IsBinary); a profile may name
// the rule of the design it follows.
type BinaryRule int

const (
	// BinaryMostlyNonText is IsBinary: more than a few NULs, or mostly
	// control bytes and invalid UTF-8, in the first SniffSize bytes.
	BinaryMostlyNonText BinaryRule = iota
	// BinaryAnyNUL is the rule of a design that samples the first
	// nulSampleChars characters of the decoded text: any NUL among them
	// makes the stream binary, and so do more than 30% of them in the
	// control ranges 0x00-0x08, 0x0B-0x0C, 0x0E-0x1F and 0x7F-0x9F
	// (tab, newline and carriage return excepted). Invalid UTF-8 decodes
	// to U+FFFD there, which is text.
	BinaryAnyNUL
	// BinaryRegions judges lines, not the stream: the lines where bytes
	// that are not text appear are judged by IsBinary's rule, and a run
	// of binary lines is shown as one notice line while the text before
	// and after it is shown (binregion.go).
	BinaryRegions
)

// nulSampleChars is how many characters BinaryAnyNUL looks at, counted as
// UTF-16 code units, as the design's substring(0, 1000) counts them.
const nulSampleChars = 1000

// binary reports whether b, the start of a stream, is binary by rule r.
func (r BinaryRule) binary(b []byte) bool {
	if r == BinaryAnyNUL {
		return anyNUL(b)
	}
	return IsBinary(b)
}

// anyNUL is BinaryAnyNUL's test.
func anyNUL(b []byte) bool {
	units, controls := 0, 0
	for i := 0; i < len(b) && units < nulSampleChars; {
		c, size := utf8.DecodeRune(b[i:])
		i += size
		if c == 0 {
			return true
		}
		if c <= 0x08 || c == 0x0B || c == 0x0C || (c >= 0x0E && c <= 0x1F) || (c >= 0x7F && c <= 0x9F) {
			controls++
		}
		units++
		if c > 0xFFFF {
			units++ // a surrogate pair
		}
	}
	return units > 0 && controls*10 > units*3
}
