package output

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// Bounds on what the Sanitizer holds. They make memory O(1) whatever the
// input, and they are applied by content, never by chunk boundary, so a
// stream gives the same result however it is split.
const (
	// maxCSI bounds an ESC [ … or ESC-intermediate sequence.
	maxCSI = 64
	// maxString bounds the body of an OSC/DCS/SOS/PM/APC string.
	maxString = 4096
	// Sanitized pieces shorter than directSize (text between escape
	// sequences, say) are gathered and passed on together, at most
	// flushSize at a time and at the end of each Write; longer pieces are
	// passed on as they are, without a copy.
	directSize = 512
	flushSize  = 32 << 10
)

type sanState uint8

const (
	stText      sanState = iota
	stEsc                // after ESC
	stEscInter           // ESC followed by intermediate bytes 0x20–0x2F
	stCSI                // ESC [
	stString             // body of OSC, DCS, SOS, PM or APC
	stStringEsc          // ESC inside a string: expect '\' (ST)
)

var (
	replacementChar = []byte("\uFFFD")
	newline         = []byte{'\n'}
)

// A Sanitizer turns a terminal byte stream into plain text, streaming:
// escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-byte ESC sequences)
// are stripped even when split across writes; control bytes other than '\t'
// and '\n' are dropped; "\r\n" becomes "\n"; a lone '\r' moves the cursor
// to the start of its line, so the text after it overwrites the line as a
// terminal shows it ("abcdef\rxy" shows "xycdef", progress bars their last
// state); invalid UTF-8 becomes U+FFFD.
//
// Redraws are applied as a terminal would, within the lines still held:
// cursor up and down (CSI A, B, E, F), to a column (CSI C, D, G), erase in
// line (CSI K, 0K, 1K, 2K) and erase below (CSI J, 0J). A progress block
// that moves the cursor up over itself (docker, npm, cargo, pip) collapses
// to its final frame. Text written past the end of a line pads it with
// spaces; a column is at most 512. A cursor moved to a row counted from
// the top of the screen (CSI H, f, d) goes to a new line below the lines
// held, as where that row lies among them is unknown. Erasing the screen
// (CSI 1J, 2J, 3J) and all other sequences have no effect.
//
// To be redrawn a line must still be held: the Sanitizer always holds the
// last 64 finished lines and the current one, at most 64 KiB together
// (a longer line is passed on in part). Holding only after a first cursor
// movement would pass on the first frame of every block before it is
// redrawn (3 lines of history left for a 3-line block); holding always
// delays each line by 64 lines, which Commit ends: a look at a running
// stream (Pipeline.Result, Cut) commits what is held, so that a snapshot
// shows every line so far, and a redraw after it adds the new frame below
// the one shown. Plain text costs a copy of its last 64 lines a write.
// A write to a line already passed on (a cursor moved above the hold, or
// into a line passed on in part) cannot change it: what is held is passed
// on, and the text starts a new line below, so nothing a terminal would
// show is lost.
//
// An escape sequence that grows past its bound is not an escape sequence:
// its ESC is dropped and the rest is passed on as text, so nothing is lost.
//
// Emit receives sanitized bytes: whole UTF-8 sequences only. The slice is
// only valid during the call.
type Sanitizer struct {
	emit func([]byte)

	state sanState
	seq   []byte // ESC and what follows, while in an escape state

	carry RuneCarry // start of a rune split across writes

	out []byte // sanitized text gathered for emit

	// The lines held back, as a terminal shows them: every one but the
	// last ends in '\n'.
	hold   []byte // in buf
	buf    []byte
	rows   int  // finished lines held: the '\n' bytes of hold
	open   bool // the first held line started before the hold
	passed int  // bytes of that line passed on already

	// The cursor. Unless placed, it is at the end of the last held line
	// (plain text appends there). Once placed, row counts held lines from
	// the first (below 0: a line passed on; above s.rows: below the last)
	// and col characters from the start of the line (-1: unknown, in a
	// line partly passed on).
	placed   bool
	row, col int

	// regions: binary by region (binregion.go); bin is its state.
	regions bool
	bin     binRegion
	// lastPut is the last byte passed on; 0 before any.
	lastPut byte

	// oneLine: the input is one line at a time (EndLine between lines),
	// and the Sanitizer never adds a line break of its own, so that the
	// lines out are the lines in (read numbers the lines of a file).
	oneLine bool
}

// newSanitizer returns a Sanitizer that passes its output to emit.
func newSanitizer(emit func([]byte)) *Sanitizer {
	return &Sanitizer{emit: emit}
}

// NewLineSanitizer returns a Sanitizer for text fed one line at a time,
// its '\n' left out, with EndLine after each: an escape sequence never
// runs from one line into the next, cursor movement is stripped and not
// applied (each line of a file stands alone), and a lone '\r' in a line
// too long to hold back is dropped instead of starting a new line. What it emits
// for a line is that line sanitized, without a line break.
func NewLineSanitizer(emit func([]byte)) *Sanitizer {
	return &Sanitizer{emit: emit, oneLine: true}
}

// EndLine ends the current line: what the Sanitizer holds of it is
// flushed as Close does, and the next Write starts a new line.
func (s *Sanitizer) EndLine() {
	s.Close()
}

// Write sanitizes p. It never fails.
func (s *Sanitizer) Write(p []byte) (int, error) {
	n := len(p)
	if s.carry.Len() > 0 {
		p = s.resolveCarry(p, false)
	}
	s.process(p)
	s.flush()
	return n, nil
}

// Close flushes what the Sanitizer holds: a rune cut short becomes U+FFFD,
// an unterminated escape sequence is passed on as text, and the last line is
// emitted. The Sanitizer must not be written to afterwards.
func (s *Sanitizer) Close() error {
	// Each step may leave work for another: an aborted sequence may start
	// another or end in a partial rune, and a line judged text is
	// sanitized.
	for {
		if s.carry.Len() > 0 {
			s.resolveCarry(nil, true)
		} else if s.state != stText {
			s.abortSeq()
		} else if !s.regions || !s.endRegions() {
			break
		}
	}
	s.put(s.hold)
	s.clearHold()
	s.flush()
	s.placed = false
	return nil
}

func (s *Sanitizer) process(p []byte) {
	i := 0
	for i < len(p) {
		if s.bin.judging && !s.bin.passing {
			i += s.gather(p[i:])
			continue
		}
		if s.carry.Len() > 0 { // an aborted sequence ended in part of a rune
			i = len(p) - len(s.resolveCarry(p[i:], false))
			continue
		}
		if s.state != stText {
			i += s.escape(p[i:])
			continue
		}
		j := plainRun(p, i)
		if j > i {
			s.text(p[i:j])
			i = j
			if i == len(p) {
				return
			}
		}
		c := p[i]
		switch {
		case c == 0x1b:
			s.state = stEsc
			s.seq = append(s.seq[:0], c)
			i++
		case c == '\r':
			s.carriageReturn()
			i++
		case c < 0x80: // other control bytes and DEL
			if s.regions && !s.bin.passing && binaryByte(c) {
				s.startJudging()
				continue
			}
			i++
		default: // c >= 0x80 that plainRun did not take: invalid or split
			if !utf8.FullRune(p[i:]) {
				s.carry.Hold(p[i:])
				s.bin.carryJudged = s.bin.passing
				return
			}
			if s.regions && !s.bin.passing {
				s.startJudging()
				continue
			}
			s.text(replacementChar)
			i++
		}
	}
}

// plainRun returns the end of the run of bytes starting at i that pass
// through unchanged: printable ASCII, '\t', '\n' and valid multi-byte UTF-8.
func plainRun(p []byte, i int) int {
	for {
		// ASCII 32 bytes, then 8 bytes at a time.
		for i+32 <= len(p) {
			a := special(binary.LittleEndian.Uint64(p[i:]))
			b := special(binary.LittleEndian.Uint64(p[i+8:]))
			c := special(binary.LittleEndian.Uint64(p[i+16:]))
			d := special(binary.LittleEndian.Uint64(p[i+24:]))
			if a|b|c|d != 0 {
				break
			}
			i += 32
		}
		for i+8 <= len(p) && special(binary.LittleEndian.Uint64(p[i:])) == 0 {
			i += 8
		}
		for i < len(p) && plain[p[i]] {
			i++
		}
		if i == len(p) || p[i] < 0x80 {
			return i
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size <= 1 {
			return i // invalid, or a rune split at the end of p
		}
		i += size
	}
}

var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = true
	}
	t['\t'] = true
	t['\n'] = true
	return t
}()

const (
	lo7  = 0x7f7f7f7f7f7f7f7f
	hi   = 0x8080808080808080
	ones = 0x0101010101010101
)

// special returns, for each byte of w that is not plain ASCII (below 0x20
// other than '\t' and '\n', or 0x7f and above), its bit 7; zero when every
// byte is plain. Each test is exact per byte: the low seven bits plus a
// constant below 0x80 never carry into the next byte.
func special(w uint64) uint64 {
	low := w & lo7
	ctl := ^(low + 0x60*ones)                          // bit 7 set: low < 0x20
	notTabNL := ^(low + 0x77*ones) | (low + 0x75*ones) // bit 7 set: low < 0x09 or low > 0x0a
	del := low + 0x01*ones                             // bit 7 set: low == 0x7f
	return (ctl&notTabNL | del | w) & hi
}

// escape consumes bytes of an escape sequence from p and returns how many.
func (s *Sanitizer) escape(p []byte) int {
	for i, c := range p {
		switch s.state {
		case stEsc:
			switch {
			case c == '[':
				s.state = stCSI
			case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
				s.state = stString
			case c >= 0x20 && c <= 0x2f:
				s.state = stEscInter
			case c >= 0x30 && c <= 0x7e:
				s.done()
				return i + 1
			case c == 0x1b:
				s.seq = s.seq[:1]
				continue
			default:
				s.abortSeq()
				return i // c is text again
			}
		case stEscInter:
			switch {
			case c >= 0x20 && c <= 0x2f:
			case c >= 0x30 && c <= 0x7e:
				s.done()
				return i + 1
			default:
				s.abortSeq()
				return i
			}
		case stCSI:
			switch {
			case c >= 0x20 && c <= 0x3f: // parameters, intermediates
			case c >= 0x40 && c <= 0x7e: // final byte
				s.csi(c)
				s.done()
				return i + 1
			default:
				s.abortSeq()
				return i
			}
		case stString:
			switch c {
			case 0x07: // BEL ends an OSC (and, leniently, any string)
				s.done()
				return i + 1
			case 0x1b:
				s.state = stStringEsc
			}
		case stStringEsc:
			if c == '\\' { // ST
				s.done()
				return i + 1
			}
			// ESC inside a string ends it and starts a new sequence.
			s.done()
			s.state = stEsc
			s.seq = append(s.seq[:0], 0x1b)
			return i // reprocess c after the ESC
		}
		limit := maxCSI
		if s.state == stString || s.state == stStringEsc {
			limit = maxString
		}
		if len(s.seq) >= limit {
			s.abortSeq()
			return i // c is text again
		}
		s.seq = append(s.seq, c)
	}
	return len(p)
}

// done ends a complete escape sequence: it is dropped.
func (s *Sanitizer) done() {
	s.state = stText
	s.seq = s.seq[:0]
}

// abortSeq ends a sequence that is not one: the ESC is dropped and what
// followed it is sanitized as text.
func (s *Sanitizer) abortSeq() {
	s.state = stText
	if len(s.seq) <= 1 {
		s.seq = s.seq[:0]
		return
	}
	rest := append([]byte(nil), s.seq[1:]...)
	s.seq = s.seq[:0]
	s.process(rest)
}

// text passes on sanitized text (whole characters, no control byte but
// '\t' and '\n'), written at the cursor.
func (s *Sanitizer) text(b []byte) {
	for len(b) > 0 {
		if !s.placed {
			s.appendText(b)
			return
		}
		k := bytes.IndexByte(b, '\n')
		switch {
		case k == 0:
			s.newlineAt()
			b = b[1:]
		case k > 0:
			b = b[s.writeAt(b[:k]):]
		default:
			b = b[s.writeAt(b):]
		}
	}
}

// commit passes on the finished lines held back: a look at a stream that
// is still being written shows them, so a later redraw no longer rewrites
// them (it adds lines after them, as a terminal that was watched has shown
// both). The unfinished last line stays held.
func (s *Sanitizer) commit() {
	if s.regions {
		s.commitRegions()
	}
	if s.rows > 0 {
		s.pass(lastIndexByte(s.hold, '\n')+1, s.rows)
	}
	s.flush()
}

// held returns the lines the Sanitizer holds back: the unfinished last
// line, and the lines before it that a redraw may still rewrite. It is
// valid until the next call.
func (s *Sanitizer) held() []byte { return s.hold }

// put passes on b after what was put before: a long piece at once, a
// short one gathered with its neighbours.
func (s *Sanitizer) put(b []byte) {
	if len(b) == 0 {
		return
	}
	s.lastPut = b[len(b)-1]
	if len(b) >= directSize {
		s.flush()
		s.emit(b)
		return
	}
	s.out = append(s.out, b...)
	if len(s.out) >= flushSize {
		s.flush()
	}
}

// flush passes on the gathered text.
func (s *Sanitizer) flush() {
	if len(s.out) > 0 {
		s.emit(s.out)
		s.out = s.out[:0]
	}
}
