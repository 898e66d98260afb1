package output

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Binary by region (BinaryRegions): instead of calling a whole stream
// binary from its first 8 KiB, the Sanitizer judges the lines in which a
// non-text byte appears, and a run of binary lines becomes one line of
// its own, the run's notice:
//
//	[binary output: 300 bytes not shown; pipe the command through xxd to see them]
//
// so that the text before and after a binary blob still shows.
//
// The rule lives on the Sanitizer's slow path: plain text never meets it.
// A line is gathered raw from its first non-text byte (a control byte
// IsBinary counts, or invalid UTF-8) to its '\n', at most regionPiece
// bytes at a time, and judged by IsBinary's rule with the text of the
// line before that byte counted as text. A text line is then sanitized as
// usual (its stray controls dropped); a binary one opens a run. Inside a
// run every line is gathered and judged from its start; only a clean line
// (no non-text byte at all) is text there, and text lines end the run
// once they make runEndText bytes: random bytes hold a short stretch of
// text now and then (an empty line, a few letters between two '\n', a
// short line with few non-text bytes), which would otherwise cut one blob
// into many notices. Text that follows a run by less than that and is
// followed by binary again is counted in the run. At the end of the
// stream, or at a look at it (commit), an open run is said. The text of
// the run's first line before its first non-text byte was passed on
// already, and stays shown ("header: " before a blob, or the "ELF" of an
// executable's first bytes).
//
// What a line is judged on depends on its content only, never on how the
// stream was split into writes. The run's bytes are not kept: the spill
// file, like the text, holds the notice line in their place, so that
// both number the lines alike.

const (
	// regionPiece is how much of one line is judged at a time: a longer
	// line is judged in pieces, so memory stays bounded.
	regionPiece = SniffSize
	// runEndText is how many bytes of text lines end a binary run.
	runEndText = 32
)

// binRegion is the Sanitizer's state for binary by region.
type binRegion struct {
	judging bool   // line is being gathered raw, to be judged
	line    []byte // raw bytes gathered of the line (or of its piece)
	prefix  int    // bytes of the line passed on as text before line
	passing bool   // a line judged text is being sanitized: no new judging
	// carryJudged: the rune the Sanitizer holds was cut short at the end
	// of a line judged text, so it is not judged again.
	carryJudged bool

	run     int64  // raw bytes of the open run; 0 when none is open
	endsNL  bool   // the run's last line ended with '\n'
	pending []byte // text lines after the run, held until runEndText
	total   int64  // bytes of all the runs said so far

	notice []byte // the notice being built (reused)
}

// binaryByte reports whether c, a byte below 0x80, is a control byte that
// IsBinary counts: whitespace controls, ESC and BEL are text.
func binaryByte(c byte) bool {
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\b' && c != 0x1b && c != 0x07
}

// binaryBytes is how many bytes the binary runs said so far hold.
func (s *Sanitizer) binaryBytes() int64 { return s.bin.total }

// startJudging begins to gather the current line raw, from the byte at
// hand.
func (s *Sanitizer) startJudging() {
	s.bin.judging = true
	s.bin.line = s.bin.line[:0]
	s.bin.prefix = s.lineSoFar()
}

// lineSoFar is how many bytes of the current line were sanitized already.
func (s *Sanitizer) lineSoFar() int {
	k := lastIndexByte(s.hold, '\n')
	n := len(s.hold) - k - 1
	if k < 0 && s.open {
		n += s.passed
	}
	return n
}

// gather takes bytes of p into the line being judged, up to the line's
// end or the piece's size, judges it when either is reached, and returns
// how many bytes it took.
func (s *Sanitizer) gather(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	n := min(len(p), regionPiece-len(s.bin.line))
	if k := bytes.IndexByte(p[:n], '\n'); k >= 0 {
		n = k + 1
	}
	s.bin.line = append(s.bin.line, p[:n]...)
	if l := s.bin.line; l[len(l)-1] == '\n' || len(l) >= regionPiece {
		s.judge()
	}
	return n
}

// judge decides the gathered line (or piece).
func (s *Sanitizer) judge() {
	seg := s.bin.line
	s.bin.line = s.bin.line[:0]
	binary := binaryShare(seg, s.bin.prefix)
	if s.bin.run > 0 && !binary {
		// In a run, only a clean line is text: random bytes make short
		// lines with few non-text bytes all the time.
		binary = !clean(seg)
	}
	s.bin.prefix = 0
	switch {
	case binary:
		if s.bin.run == 0 {
			s.openRun()
		}
		s.bin.run += int64(len(s.bin.pending) + len(seg))
		s.bin.pending = s.bin.pending[:0]
		s.bin.endsNL = seg[len(seg)-1] == '\n'
		// judging goes on: the next line is judged from its start.
	case s.bin.run == 0:
		s.bin.judging = false
		s.passText(seg)
	default:
		s.bin.pending = append(s.bin.pending, seg...)
		if len(s.bin.pending) >= runEndText {
			s.bin.judging = false
			s.endRun(true)
		}
	}
}

// passText sanitizes b, a line judged text, without judging it again.
func (s *Sanitizer) passText(b []byte) {
	s.bin.passing = true
	s.process(b)
	s.bin.passing = false
}

// openRun starts a binary run on a line of its own: what the Sanitizer
// holds is passed on first (a redraw cannot reach back across a binary
// run), ended by a line break if the text before the run did not end one.
func (s *Sanitizer) openRun() {
	s.put(s.hold)
	s.clearHold()
	s.placed = false
	if s.lastPut != 0 && s.lastPut != '\n' {
		s.put(newline)
	}
}

// endRun says the open run as one line, then sanitizes the text lines
// held after it. newline ends the notice with a line break even if the
// run's last line had none (text follows it).
func (s *Sanitizer) endRun(newlineAfter bool) {
	n := s.bin.run
	if s.bin.endsNL {
		n-- // the line break of its last line is the notice's
	}
	s.bin.total += n
	s.bin.notice = append(s.bin.notice[:0], "[binary output: "...)
	s.bin.notice = strconv.AppendInt(s.bin.notice, n, 10)
	s.bin.notice = append(s.bin.notice, " bytes not shown; pipe the command through xxd to see them]"...)
	if s.bin.endsNL || newlineAfter || len(s.bin.pending) > 0 {
		s.bin.notice = append(s.bin.notice, '\n')
	}
	s.bin.run, s.bin.endsNL = 0, false
	s.put(s.bin.notice)
	if len(s.bin.pending) > 0 {
		s.passText(s.bin.pending)
		s.bin.pending = s.bin.pending[:0]
	}
}

// endRegions, at the end of the stream, judges the line being gathered
// as it is and says an open run. It reports whether it did anything, so
// that Close can end what that leaves (an escape sequence, a rune) and
// call it again.
func (s *Sanitizer) endRegions() bool {
	if s.bin.judging && len(s.bin.line) > 0 {
		s.judge()
		return true
	}
	s.bin.judging = false
	if s.bin.run > 0 {
		s.endRun(false)
		return true
	}
	return false
}

// commitRegions, at a look at a running stream, says the open run so far,
// so that the look shows it. A line being gathered goes on being
// gathered, and is judged as a line outside a run.
func (s *Sanitizer) commitRegions() {
	if s.bin.run > 0 {
		s.endRun(true)
	}
}

// resolveCarry completes the rune a write cut short. With regions on, an
// invalid sequence there starts the judging of its line, as process does
// when the sequence comes whole, so that the result does not depend on
// where writes end.
func (s *Sanitizer) resolveCarry(p []byte, eof bool) []byte {
	if !s.regions || s.bin.passing || s.bin.carryJudged {
		// A rune cut short at the end of a line judged text is text.
		s.bin.carryJudged = false
		return s.carry.Resolve(p, eof, s.text)
	}
	var buf [2 * utf8.UTFMax]byte
	held := s.carry.b[:s.carry.n]
	k := copy(buf[:], held)
	take := copy(buf[k:], p)
	b := buf[:k+take]
	if !utf8.FullRune(b) && !eof {
		s.carry.Hold(b)
		return p[len(p):]
	}
	r, size := utf8.DecodeRune(b)
	if r == utf8.RuneError && size <= 1 {
		s.carry.Reset()
		s.startJudging()
		s.bin.line = append(s.bin.line, b[:k]...)
		return p
	}
	s.carry.Reset()
	s.text(b[:size])
	return p[size-k:]
}

// clean reports whether b holds no byte binaryShare counts: no control
// byte but whitespace, ESC and BEL, and valid UTF-8 (a rune cut short at
// the end of b excepted).
func clean(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			if binaryByte(c) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 && (len(b)-i >= utf8.UTFMax || utf8.FullRune(b[i:])) {
			return false
		}
		i += size
	}
	return true
}

// binaryShare is IsBinary's rule for b, a piece of a stream that follows
// text bytes of its line.
func binaryShare(b []byte, text int) bool {
	n := len(b) + text
	if nul := bytes.Count(b, []byte{0}); nul >= 4 && nul*100 >= n {
		return true
	}
	controls, invalid := 0, 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			if binaryByte(c) {
				controls++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 && (len(b)-i >= utf8.UTFMax || utf8.FullRune(b[i:])) {
			invalid++
		}
		i += size
	}
	if controls <= fewControls && invalid == 0 && n-controls >= controls {
		controls = 0 // a few, in valid text that outweighs them
	}
	return (controls+invalid)*10 > n*3
}
