package output

import (
	"bytes"
	"unicode/utf8"
)

// Bounds on the lines the Sanitizer holds back so that a redraw can still
// rewrite them. A progress block of up to holdRows lines (docker's build
// steps, a test runner's workers) collapses to its final state; a taller
// one, or a cursor moved further up, reaches lines already passed on.
const (
	// holdRows is how many finished lines are held, besides the current one.
	holdRows = 64
	// holdBytes bounds the held lines together. A single line longer than
	// that is passed on in part, in steps of openStep bytes.
	holdBytes = 64 << 10
	openStep  = holdBytes / 2
	// maxCursor bounds a cursor movement's count, as terminals do.
	maxCursor = 1 << 16
	// maxColumn bounds the column the cursor can be moved to, as a
	// terminal's width does: a line is padded with spaces up to the cursor,
	// and a wider bound would let a few bytes of input make many of output.
	maxColumn = 511
	// writePiece bounds the text written at once in the middle of the held
	// lines, so that the hold grows by at most that much before trimming.
	writePiece = 4 << 10
)

// appendText appends b at the end of the last held line (the cursor is
// there): the fast path of plain text. What can no longer be held is
// passed on as it is, without a copy.
func (s *Sanitizer) appendText(b []byte) {
	// Lines before the last holdRows lines of b scroll out whatever is held,
	// and so do lines before the last holdBytes of b.
	p, nl := afterNthLastNewline(b, holdRows+1)
	if len(b)-p > holdBytes {
		if k := bytes.IndexByte(b[len(b)-holdBytes-1:], '\n'); k >= 0 {
			p = len(b) - holdBytes + k
			nl = bytes.Count(b[p:], newline)
		} else if k := lastIndexByte(b, '\n'); k >= 0 {
			p, nl = k+1, 0
		}
	}
	if p > 0 {
		s.put(s.hold)
		s.put(b[:p])
		s.clearHold()
		b = b[p:]
	}
	if nl == 0 && len(s.hold)+len(b) > holdBytes {
		// b continues the last line. If that line alone is longer than
		// the hold, the lines before it go, and its start.
		last := lastIndexByte(s.hold, '\n') + 1
		if len(s.hold)-last+len(b) > holdBytes {
			s.pass(last, s.rows)
			b = s.passLong(b)
		}
	}
	s.grow(len(b))
	s.hold = append(s.hold, b...)
	if s.rows += nl; nl > 0 || len(s.hold) > holdBytes {
		s.trim()
	}
}

// afterNthLastNewline returns the offset just after the n-th '\n' from the
// end of b, and n; or 0 and the number of '\n' in b when it has fewer.
func afterNthLastNewline(b []byte, n int) (int, int) {
	const block = 512
	found := 0
	if len(b) < 128 { // text between escape sequences: no call is cheaper
		for _, c := range b {
			if c == '\n' {
				found++
			}
		}
		if found < n {
			return 0, found
		}
	}
	for end := len(b); end > 0; end -= block {
		start := max(0, end-block)
		c := bytes.Count(b[start:end], newline)
		if found+c < n {
			found += c
			continue
		}
		for i := end - 1; ; i-- {
			if b[i] == '\n' {
				if found++; found == n {
					return i + 1, n - 1
				}
			}
		}
	}
	return 0, found
}

// clearHold forgets the held lines, which were passed on.
func (s *Sanitizer) clearHold() {
	s.hold = s.buf[:0]
	s.rows = 0
	s.open = false
	s.passed = 0
}

// trim passes on the oldest held lines until the hold is within its bounds.
func (s *Sanitizer) trim() {
	cut, rows := 0, 0
	for rows < s.rows && (s.rows-rows > holdRows || len(s.hold)-cut > holdBytes) {
		cut += bytes.IndexByte(s.hold[cut:], '\n') + 1
		rows++
	}
	s.pass(cut, rows)
	if len(s.hold) > holdBytes {
		s.passLong(nil)
	}
}

// pass passes on the first n bytes held: the first rows lines, whole.
func (s *Sanitizer) pass(n, rows int) {
	if n == 0 {
		return
	}
	s.put(s.hold[:n])
	s.hold = s.hold[n:]
	s.rows -= rows
	s.row -= rows
	s.open = false
	s.passed = 0
}

// passLong passes on the start of the one held line, which with b that
// continues it is longer than the hold, and returns what is left of b to
// hold. The cut falls where the length of the whole line puts it (a
// multiple of openStep, then the next character), never where a write
// happened to end, so that a stream is cut the same way however it is
// split into writes.
func (s *Sanitizer) passLong(b []byte) []byte {
	held := len(s.hold)
	total := s.passed + held + len(b) // the line's length so far
	target := (total - holdBytes + openStep - 1) / openStep * openStep
	cut := target - s.passed // in the held part followed by b
	for cut < held+len(b) && !utf8.RuneStart(at(s.hold, b, cut)) {
		cut++
	}
	if cut <= held {
		s.put(s.hold[:cut])
		s.hold = s.hold[cut:]
	} else {
		s.put(s.hold)
		s.put(b[:cut-held])
		b = b[cut-held:]
		s.hold = s.buf[:0]
	}
	s.passed += cut
	s.open = true
	return b
}

// at returns the byte at i of a followed by b.
func at(a, b []byte, i int) byte {
	if i < len(a) {
		return a[i]
	}
	return b[i-len(a)]
}

// place leaves the fast path: the cursor, at the end of the last line,
// gets a row and a column.
func (s *Sanitizer) place() {
	if s.placed {
		return
	}
	s.placed = true
	s.row = s.rows
	s.col = -1 // unknown in a line partly passed on
	if !s.open {
		s.col = runeCount(s.hold[lastIndexByte(s.hold, '\n')+1:])
	}
}

// unplace returns to the fast path if the cursor is at the end of the
// last line.
func (s *Sanitizer) unplace() {
	if s.placed && s.row == s.rows && s.col >= 0 && !s.open &&
		s.col == runeCount(s.hold[lastIndexByte(s.hold, '\n')+1:]) {
		s.placed = false
	}
}

// rowSpan returns where held row r (0 ≤ r ≤ s.rows) lies in the hold,
// without its '\n'. Redraws work near the end, so rows in the second half
// are found from there.
func (s *Sanitizer) rowSpan(r int) (start, end int) {
	if r >= s.rows/2 {
		end = len(s.hold)
		for k := s.rows; k > r; k-- {
			end = lastIndexByte(s.hold[:end], '\n')
		}
		return lastIndexByte(s.hold[:end], '\n') + 1, end
	}
	for ; r > 0; r-- {
		start += bytes.IndexByte(s.hold[start:], '\n') + 1
	}
	return start, start + bytes.IndexByte(s.hold[start:], '\n')
}

// grow makes room for n more bytes after the hold. The hold moves to the
// start of its buffer when the room is before it, and the buffer is kept
// at least twice what it holds, so that passing on the first line held is
// a reslice and the moves cost O(1) a byte.
func (s *Sanitizer) grow(n int) {
	if len(s.hold)+n <= cap(s.hold) {
		return
	}
	need := len(s.hold) + n
	if 2*need > len(s.buf) {
		buf := make([]byte, 2*need)
		copy(buf, s.hold)
		s.buf = buf
	} else {
		copy(s.buf, s.hold)
	}
	s.hold = s.buf[:len(s.hold)]
}

// carriageReturn applies a lone '\r': the cursor goes to the start of its
// line, and the text that follows overwrites the line from there, leaving
// what lies past its end (docs/notices.md, "Sanitizing").
func (s *Sanitizer) carriageReturn() {
	s.place()
	s.col = 0
}

// newlineAt moves the cursor to the start of the next line, adding it if
// the cursor was on the last.
func (s *Sanitizer) newlineAt() {
	s.row++
	s.col = 0
	if s.row > s.rows {
		s.materialize()
		s.trim()
	}
	s.unplace()
}

// materialize adds empty lines up to the cursor's row.
func (s *Sanitizer) materialize() {
	for s.rows < s.row {
		s.grow(1)
		s.hold = append(s.hold, '\n')
		s.rows++
	}
}

// writeAt writes text b (no '\n') at the cursor, over what the line holds
// there, and returns how much of b it wrote.
func (s *Sanitizer) writeAt(b []byte) int {
	if s.row < 0 || s.row == 0 && s.open {
		// The line was passed on, in whole or in part: it cannot change.
		if s.oneLine {
			// One line at a time never gets a line break: the text
			// follows what was passed on.
			s.passed += len(s.hold)
			s.put(s.hold)
			s.hold = s.buf[:0]
			s.placed = false
			return 0
		}
		s.detach()
	}
	if len(b) > writePiece {
		n := writePiece
		for !utf8.RuneStart(b[n]) {
			n--
		}
		b = b[:n]
	}
	s.materialize()
	start, end := s.rowSpan(s.row)
	off, missing := colOffset(s.hold[start:end], s.col)
	if missing > 0 {
		s.splice(end, end, missing)
		for i := end; i < end+missing; i++ {
			s.hold[i] = ' '
		}
		end += missing
		off += missing
	}
	n := utf8.RuneCount(b)
	from := start + off
	to, _ := colOffset(s.hold[from:end], n)
	s.splice(from, from+to, len(b))
	copy(s.hold[from:], b)
	s.col += n
	atEnd := s.row == s.rows && from+len(b) == len(s.hold)
	s.trim()
	if atEnd && s.row == s.rows {
		s.placed = false // at the end of the last line, even one passed on in part
	}
	return len(b)
}

// detach gives up on the lines held: a write reaches a line already passed
// on. What is held is passed on, and the cursor goes to a new line below
// it, at the same column, so that nothing is written over.
func (s *Sanitizer) detach() {
	s.put(s.hold)
	if s.open || len(s.hold) > 0 && s.hold[len(s.hold)-1] != '\n' {
		s.put(newline)
	}
	s.clearHold()
	s.row = 0
	s.col = max(s.col, 0)
}

// splice makes the n bytes at hold[i:j] (n may differ from j-i); the
// bytes after j move. The caller fills the n bytes.
func (s *Sanitizer) splice(i, j, n int) {
	d := n - (j - i)
	switch {
	case d > 0:
		end := len(s.hold)
		s.grow(d)
		s.hold = append(s.hold, make([]byte, d)...)
		copy(s.hold[j+d:], s.hold[j:end])
	case d < 0:
		s.hold = s.hold[:i+n+copy(s.hold[i+n:], s.hold[j:])]
	}
}

// colOffset returns the offset of character col in line, or its length and
// how many characters it lacks to reach col.
func colOffset(line []byte, col int) (off, missing int) {
	i := 0
	for n := 0; n < col; n++ {
		if i == len(line) {
			return i, col - n
		}
		if line[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(line[i:])
			i += size
		}
	}
	return i, 0
}

// csi applies a complete control sequence, s.seq (ESC [ and parameters)
// then final, if it moves the cursor or erases; others have no effect.
func (s *Sanitizer) csi(final byte) {
	switch final {
	case 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'd', 'f':
	default:
		return
	}
	if s.oneLine || s.state != stCSI {
		return
	}
	params := s.seq[2:]
	for _, c := range params {
		if c < '0' || c > ';' || c == ':' {
			return // private (?25l), intermediates, sub-parameters: not ours
		}
	}
	p1, rest := csiParam(params)
	switch final {
	case 'K':
		if s.placed || p1 == 1 || p1 == 2 { // at the end of the last line, K erases nothing
			s.place()
			s.eraseLine(p1)
		}
		return
	case 'J':
		if p1 == 0 && s.placed {
			s.eraseBelow()
		}
		return
	}
	n := min(max(p1, 1), maxCursor)
	s.place()
	switch final {
	case 'A':
		s.row = max(s.row-n, -maxCursor)
	case 'F':
		s.row = max(s.row-n, -maxCursor)
		s.col = 0
	case 'B':
		s.row = min(s.row+n, s.rows+holdRows)
	case 'E':
		s.row = min(s.row+n, s.rows+holdRows)
		s.col = 0
	case 'C':
		if s.col >= 0 {
			s.col = min(s.col+n, max(s.col, maxColumn))
		}
	case 'D':
		if s.col >= 0 {
			s.col = max(s.col-n, 0)
		}
	case 'G':
		s.col = min(n-1, maxColumn)
	case 'H', 'f', 'd':
		// A row counted from the top of the screen: where that is among
		// the lines held is unknown, so the text that follows starts a
		// new line below them.
		if final != 'd' {
			p2, _ := csiParam(rest)
			s.col = min(max(p2, 1)-1, maxColumn)
		}
		s.row = s.rows + 1
		if len(s.hold) == 0 || s.hold[len(s.hold)-1] == '\n' {
			s.row = s.rows
		}
	}
	s.unplace()
}

// csiParam parses the first parameter of p (0 when empty) and returns the
// rest after its ';'.
func csiParam(p []byte) (int, []byte) {
	n := 0
	for i, c := range p {
		if c == ';' {
			return n, p[i+1:]
		}
		n = min(n*10+int(c-'0'), maxCursor)
	}
	return n, nil
}

// eraseLine applies CSI K: 0 erases from the cursor to the end of the line,
// 1 from its start to the cursor, 2 the whole line.
func (s *Sanitizer) eraseLine(mode int) {
	if s.row < 0 || s.row > s.rows || mode > 2 {
		return
	}
	if s.row == 0 && s.open {
		s.detach() // what was passed on stays; the cursor's line is new
		return
	}
	start, end := s.rowSpan(s.row)
	switch mode {
	case 0:
		off, _ := colOffset(s.hold[start:end], s.col)
		s.splice(start+off, end, 0)
	case 1:
		off, _ := colOffset(s.hold[start:end], s.col+1)
		n := min(s.col+1, utf8.RuneCount(s.hold[start:start+off]))
		s.splice(start, start+off, n)
		for i := start; i < start+n; i++ {
			s.hold[i] = ' '
		}
	case 2:
		s.splice(start, end, 0)
	}
	s.unplace()
}

// eraseBelow applies CSI J: the cursor's line from the cursor on, and
// every line below, are erased.
func (s *Sanitizer) eraseBelow() {
	if s.row > s.rows {
		return
	}
	if s.row < 0 || s.row == 0 && s.open {
		if s.open {
			s.detach()
			return
		}
		s.hold = s.buf[:0]
		s.rows = 0
		return
	}
	s.eraseLine(0)
	s.place()
	_, end := s.rowSpan(s.row)
	s.hold = s.hold[:end]
	s.rows = s.row
	s.unplace()
}
