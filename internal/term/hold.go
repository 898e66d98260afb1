package term

import (
	"bytes"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
)

// A sink is what the feeder feeds: the emulator (*vt.Emulator), or in a
// test a recorder of what reaches it.
type sink interface {
	Write(p []byte) (int, error)
	IsAltScreen() bool
	CursorPosition() uv.Position
}

// The emulator moves the whole screen for every line it scrolls, some
// 30 µs at 120×40: fed line by line, a 100 MB flood of short lines would
// take minutes. So plain text (printable characters, CR, LF, tab,
// backspace, bell, colours and erase-in-line) is held, and of a long run
// of it only the tail reaches the emulator:
//
// After 2×rows+1 line feeds, the screen shows nothing that was on it
// before them: at most rows-1 of them move the cursor down without
// scrolling, so rows+1 or more scroll, and every row of the screen then
// came in blank at the bottom and was written by the text after it. What
// was before that text is then invisible, provided the first of its lines
// returns the cursor to the first column (a CR, which a terminal's output
// has before every LF) and the scrolling region is the whole screen. The
// text before such a point changes only the pen's colours and the cursor,
// and the cursor is set again after it. So it is dropped, unseen.
//
// Any other control or escape sequence (cursor addressing, modes, the
// alternate screen, a title) first feeds the held text, then itself.

const (
	// holdSlack is how many line feeds more than needed are held before
	// the surplus is dropped: dropping moves the kept tail to the front.
	holdSlack = 64
	// maxHold bounds the held text: a longer run (one enormous line) is fed.
	maxHold = 256 << 10
	// maxSeq bounds an escape sequence read in full before it is passed.
	// No number in it is longer than five digits (see appendDigit).
	maxSeq = 128
)

// Where the byte stream is, for the feeder's own small parser.
const (
	ground   = iota
	escape   // after ESC
	csiParam // in a control sequence: ESC [ …
	csiPass  // in a control sequence too long to hold, passed as it comes
	str      // in a string (OSC, DCS, APC, PM, SOS) up to BEL or ST
	strEsc   // an ESC in a string: ST if a backslash follows
)

// A feeder holds plain text and feeds the emulator in order.
type feeder struct {
	cols int
	rows int
	hold []byte
	lfs  int // line feeds in hold
	st   int
	seq  []byte // the escape sequence being read

	alt     bool // the program holds the alternate screen
	drawn   bool // it cleared the main screen and drew on it
	scrolls int  // line feeds since it cleared it or placed the cursor
	margins bool // a scrolling region smaller than the screen is set
}

// plain reports whether b is held: printable, UTF-8, CR, LF, tab,
// backspace, bell.
func plain(b byte) bool {
	return b >= 0x20 && b != 0x7f || b == '\r' || b == '\n' || b == '\t' || b == '\b' || b == 0x07
}

// write feeds p; see Screen.Write. It reports whether p left the
// alternate screen, and the end of the sequence that last left it.
func (f *feeder) write(e sink, p []byte) (left bool, at int) {
	for i := 0; i < len(p); {
		var l bool
		switch f.st {
		case ground:
			i = f.readGround(e, p, i)
		case escape:
			l = f.escapeByte(e, p[i])
			i++
		case csiParam:
			l = f.csiByte(e, p[i])
			i++
		case csiPass:
			f.csiPassByte(e, p[i:i+1])
			i++
		case str:
			i = f.passString(e, p, i)
		case strEsc:
			f.strEscByte(e, p[i:i+1])
			i++
		}
		if l {
			left, at = true, i
		}
	}
	return left, at
}

// readGround takes what starts at p[i] outside any sequence: a run of plain
// text, an ESC, or another control. It returns where it stopped.
func (f *feeder) readGround(e sink, p []byte, i int) int {
	b := p[i]
	if plain(b) {
		j := i + 1
		for j < len(p) && plain(p[j]) {
			j++
		}
		f.text(e, p[i:j])
		return j
	}
	if b == 0x1b {
		f.st, f.seq = escape, append(f.seq[:0], b)
		return i + 1
	}
	// Another control (VT, FF, SO, SI …): in order.
	f.flush(e)
	e.Write(p[i : i+1])
	return i + 1
}

// escapeByte takes the byte after an ESC: the start of a control sequence
// or a string, or the final byte of a short escape sequence. It reports
// whether that sequence left the alternate screen.
func (f *feeder) escapeByte(e sink, b byte) (left bool) {
	f.seq = append(f.seq, b)
	switch {
	case b == '[':
		f.st = csiParam
	case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
		f.pass(e)
		f.st = str
	case b == 0x1b:
		f.seq = f.seq[:1] // ESC ESC: the first is dropped, as a terminal does
	case b >= 0x20 && b <= 0x2f:
		// An intermediate byte: the final one follows.
	default:
		left = f.pass(e)
		f.st = ground
	}
	return left
}

// csiByte takes a byte of a control sequence being read, and reports
// whether the sequence it ends left the alternate screen.
func (f *feeder) csiByte(e sink, b byte) (left bool) {
	switch {
	case b == 0x1b:
		f.pass(e)
		f.st, f.seq = escape, append(f.seq[:0], b)
	case b == 0x18 || b == 0x1a: // CAN, SUB: the sequence is cancelled
		f.seq = append(f.seq, b)
		f.pass(e)
		f.st = ground
	case b >= 0x40 && b <= 0x7e:
		f.seq = append(f.seq, b)
		left = f.csi(e)
		f.st = ground
	case b >= '0' && b <= '9':
		f.seq = appendDigit(f.seq, b)
	default:
		f.seq = append(f.seq, b)
		if len(f.seq) > maxSeq {
			f.passLong(e)
		}
	}
	return left
}

// passLong passes a control sequence too long to hold as it comes: the
// counts read so far are held to a bound that no parameter of a sequence
// this long (colours, modes) needs to pass, since its final byte is not
// known yet.
func (f *feeder) passLong(e sink) {
	if simpleParams(f.seq[2:]) {
		f.seq = clampCounts(append(f.seq, 'm'), max(f.cols, f.rows, 255))
		f.seq = f.seq[:len(f.seq)-1]
	}
	f.pass(e)
	f.st = csiPass
}

// csiPassByte passes a byte of a long control sequence, up to its final
// byte or a cancel.
func (f *feeder) csiPassByte(e sink, b []byte) {
	e.Write(b)
	if c := b[0]; c >= 0x40 && c <= 0x7e || c == 0x18 || c == 0x1a {
		f.st = ground
	}
}

// passString passes a string from p[i] up to its end (BEL, ESC, CAN, SUB) at
// once, and returns where it stopped.
func (f *feeder) passString(e sink, p []byte, i int) int {
	j := i
	for j < len(p) && p[j] != 0x07 && p[j] != 0x1b && p[j] != 0x18 && p[j] != 0x1a {
		j++
	}
	if j < len(p) {
		if p[j] == 0x1b {
			f.st = strEsc
		} else {
			f.st = ground
		}
		j++
	}
	e.Write(p[i:j])
	return j
}

// strEscByte passes the byte after an ESC in a string: a backslash ends
// the string (ST), anything else is more of it.
func (f *feeder) strEscByte(e sink, b []byte) {
	e.Write(b)
	if b[0] == '\\' {
		f.st = ground
	} else {
		f.st = str
	}
}

// text takes a run of plain bytes.
func (f *feeder) text(e sink, t []byte) {
	n := bytes.Count(t, []byte{'\n'})
	f.hold = append(f.hold, t...)
	f.lfs += n
	f.scrolled(n)
	f.trim(e)
}

// scrolled counts line feeds on a screen the program drew on: once there
// have been as many as it has rows since the cursor was last placed, the
// screen has scrolled, and the program is line-oriented again.
func (f *feeder) scrolled(n int) {
	if f.drawn {
		f.scrolls += n
		if f.scrolls >= f.rows {
			f.drawn = false
		}
	}
}

// trim drops the held text that can no longer be on the screen, or feeds
// it when it cannot be known to be gone.
func (f *feeder) trim(e sink) {
	keep := 2*f.rows + 1
	if f.lfs > keep+holdSlack && !f.alt && !f.margins {
		// Cut after the line feed that has keep of them after it.
		cut := 0
		for range f.lfs - keep {
			cut += bytes.IndexByte(f.hold[cut:], '\n') + 1
		}
		first := f.hold[cut:]
		first = first[:bytes.IndexByte(first, '\n')]
		if bytes.IndexByte(first, '\r') >= 0 && utf8.Valid(f.hold[:cut]) {
			f.hold = f.hold[:copy(f.hold, f.hold[cut:])]
			f.lfs = keep
			return
		}
	}
	if len(f.hold) > maxHold {
		f.flush(e)
	}
}

// flush feeds the held text.
func (f *feeder) flush(e sink) {
	if len(f.hold) == 0 {
		return
	}
	e.Write(f.hold)
	f.hold, f.lfs = f.hold[:0], 0
	if cap(f.hold) > maxHold {
		f.hold = nil
	}
}

// pass feeds the held text, then the sequence read, and reports whether
// it left the alternate screen.
func (f *feeder) pass(e sink) (left bool) {
	f.flush(e)
	e.Write(f.seq)
	f.seq = f.seq[:0]
	was := f.alt
	f.alt = e.IsAltScreen()
	if f.alt != was {
		f.drawn = false
	}
	return was && !f.alt
}

// csi takes a whole control sequence, ESC [ … final, and reports whether
// it left the alternate screen.
func (f *feeder) csi(e sink) (left bool) {
	s := f.seq
	final := s[len(s)-1]
	params := s[2 : len(s)-1]
	if (final == 'm' || final == 'K') && simpleParams(params) {
		// Colours and erase-in-line change nothing that outlives the line.
		f.hold = append(f.hold, s...)
		f.seq = f.seq[:0]
		return false
	}
	switch {
	case final == 'J' && !f.alt && (string(params) == "2" || string(params) == "3"):
		f.drawn, f.scrolls = true, 0
	case final == 'H' || final == 'f' || final == 'd':
		// The cursor is placed: line feeds count from there.
		f.scrolls = 0
	case final == 'r' && simpleParams(params):
		f.margins = !fullRegion(params, f.rows)
	}
	if simpleParams(params) {
		x := 0
		if final == 'b' {
			f.flush(e)
			x = e.CursorPosition().X
		}
		if limit := countLimit(final, f.cols, f.rows, x); limit > 0 {
			f.seq = clampCounts(f.seq, limit)
		}
	}
	return f.pass(e)
}

// simpleParams reports whether a control sequence's parameters are
// numbers only (no private marker, no intermediate byte).
func simpleParams(p []byte) bool {
	for _, b := range p {
		if (b < '0' || b > '9') && b != ';' && b != ':' {
			return false
		}
	}
	return true
}

// fullRegion reports whether DECSTBM's parameters name the whole screen.
func fullRegion(p []byte, rows int) bool {
	top, bottom, ok := bytes.Cut(p, []byte{';'})
	n := func(b []byte, def int) int {
		if len(b) == 0 {
			return def
		}
		v := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		if v == 0 {
			return def
		}
		return v
	}
	t := n(top, 1)
	if !ok {
		return t == 1
	}
	return t == 1 && n(bottom, rows) >= rows
}
