package output

import (
	"bytes"
	"math"
	"unicode/utf8"
)

// A window keeps what may be shown of a stream: a bounded head buffer and a
// bounded tail ring. It receives the line-cut stream.
type window struct {
	lim     Limits
	headCap int
	head    []byte
	ring    *tailRing // last MaxBytes+1 bytes (the extra byte tells whether the kept part starts a line)
	bytes   int64
	nl      int64 // '\n' bytes written
	last    byte

	lineLen      int64 // bytes of the unfinished last line
	prevLineLen  int64 // bytes of the last finished line, '\n' included
	firstLineLen int64 // bytes of the first line, while it is unfinished or once known
	firstDone    bool
}

func newWindow(lim Limits) *window {
	w := &window{lim: lim}
	switch lim.Strategy {
	case Head:
		w.headCap = lim.MaxBytes
	case HeadTail:
		w.headCap = int(math.Floor(lim.HeadShare * float64(lim.MaxBytes)))
		w.ring = newTailRing(lim.MaxBytes + 1)
	default:
		w.ring = newTailRing(lim.MaxBytes + 1)
	}
	w.head = make([]byte, 0, w.headCap)
	return w
}

func (w *window) write(b []byte) {
	if len(b) == 0 {
		return
	}
	w.bytes += int64(len(b))
	w.nl += int64(bytes.Count(b, newline))
	w.last = b[len(b)-1]
	if k := bytes.LastIndexByte(b, '\n'); k < 0 {
		w.lineLen += int64(len(b))
	} else {
		if !w.firstDone {
			w.firstDone = true
			w.firstLineLen = w.lineLen + int64(bytes.IndexByte(b, '\n')) + 1
		}
		if j := bytes.LastIndexByte(b[:k], '\n'); j >= 0 {
			w.prevLineLen = int64(k - j)
		} else {
			w.prevLineLen = w.lineLen + int64(k) + 1
		}
		w.lineLen = int64(len(b) - k - 1)
	}
	if !w.firstDone {
		w.firstLineLen = w.lineLen
	}
	if room := w.headCap - len(w.head); room > 0 {
		w.head = append(w.head, b[:min(room, len(b))]...)
	}
	if w.ring != nil {
		w.ring.write(b)
	}
}

// lines counts lines, the last one even without its '\n'.
func (w *window) lines() int64 {
	if w.bytes > 0 && w.last != '\n' {
		return w.nl + 1
	}
	return w.nl
}

func (w *window) reset() {
	w.head = w.head[:0]
	if w.ring != nil {
		w.ring.reset()
	}
	w.bytes, w.nl, w.last = 0, 0, 0
	w.lineLen, w.prevLineLen, w.firstLineLen, w.firstDone = 0, 0, 0, false
}

// view is what a window shows.
type view struct {
	head, tail   []byte
	headLines    int64
	tailLines    int64
	totalLines   int64
	truncatedBy  string // "lines", "bytes" or "" when everything fits
	firstPartial bool
	lastPartial  bool
	omittedLines int64
	omittedBytes int64
	lineBytes    int64 // size of the line shown partially
}

func (w *window) view() view {
	v := view{totalLines: w.lines()}
	if v.totalLines <= int64(w.lim.MaxLines) && w.bytes <= int64(w.lim.MaxBytes) {
		if w.lim.Strategy == Head {
			v.head = w.head
		} else {
			v.head = w.ring.bytes()
		}
		v.headLines = v.totalLines
		return v
	}
	maxLines, maxBytes := int64(w.lim.MaxLines), int64(w.lim.MaxBytes)
	switch w.lim.Strategy {
	case Head:
		v.head, v.headLines, v.truncatedBy = headLines(w.head, maxLines, maxBytes)
		if v.headLines == 0 {
			v.head = utf8Prefix(w.head, int(maxBytes))
			v.headLines, v.firstPartial = 1, true
		}
	case Tail:
		r := w.ring.bytes()
		v.tail, v.tailLines, v.truncatedBy = tailLines(r, w.ringStart(), maxLines, maxBytes)
		if v.tailLines == 0 {
			v.tail = utf8Suffix(r, int(maxBytes))
			v.tailLines, v.lastPartial = 1, true
		}
	case HeadTail:
		hl := int64(math.Floor(w.lim.HeadShare * float64(maxLines)))
		hb := int64(len(w.head))
		var headBy string
		v.head, v.headLines, headBy = headLines(w.head, hl, hb)
		r := w.ring.bytes()
		v.tail, v.tailLines, v.truncatedBy = tailLines(r, w.ringStart(),
			maxLines-v.headLines, maxBytes-int64(len(v.head)))
		if v.tailLines == 0 && v.headLines == 0 {
			v.tail = utf8Suffix(r, int(maxBytes))
			v.tailLines, v.lastPartial = 1, true
		}
		if v.tailLines == 0 && headBy != "" {
			v.truncatedBy = headBy
		}
	}
	if v.truncatedBy == "" {
		v.truncatedBy = ByBytes
	}
	v.omittedLines = v.totalLines - v.headLines - v.tailLines
	v.omittedBytes = w.bytes - int64(len(v.head)) - int64(len(v.tail))
	switch {
	case v.firstPartial:
		v.omittedLines = v.totalLines - 1
		v.lineBytes = w.firstLineLen
	case v.lastPartial:
		v.omittedLines = v.totalLines - 1
		v.lineBytes = w.lineLen
		if v.lineBytes == 0 {
			v.lineBytes = w.prevLineLen
		}
	}
	return v
}

// ringStart reports whether the ring's kept bytes begin at a line start:
// when nothing was dropped before them, or the dropped byte before them is
// '\n'. The ring keeps one byte more than it shows to know that.
func (w *window) ringStart() bool {
	return !w.ring.full
}

// headLines takes whole lines from the start of b, at most maxLines lines
// and maxBytes bytes. It returns the lines, their count and which limit
// stopped it ("" when b ran out first).
func headLines(b []byte, maxLines, maxBytes int64) ([]byte, int64, string) {
	var n int64
	end := 0
	for end < len(b) {
		k := bytes.IndexByte(b[end:], '\n')
		if k < 0 {
			return b[:end], n, ByBytes // the next line does not fit in the buffer
		}
		if n == maxLines {
			return b[:end], n, ByLines
		}
		if int64(end+k+1) > maxBytes {
			return b[:end], n, ByBytes
		}
		end += k + 1
		n++
	}
	if n == maxLines {
		return b[:end], n, ByLines
	}
	return b[:end], n, ByBytes
}

// tailLines takes whole lines from the end of r, at most maxLines lines and
// maxBytes bytes. startsLine says whether r[0] begins a line; if not, the
// first line in r is incomplete and never taken. r holds at most maxBytes+1
// bytes, so the first byte of a full ring only serves that purpose.
func tailLines(r []byte, startsLine bool, maxLines, maxBytes int64) ([]byte, int64, string) {
	lo := 0
	if !startsLine {
		// r[0] is the byte before the kept part; the kept part starts a
		// line only after a '\n'.
		k := bytes.IndexByte(r, '\n')
		if k < 0 {
			return nil, 0, ByBytes
		}
		lo = k + 1
	}
	pos := len(r)
	var n int64
	for pos > lo {
		if n == maxLines {
			return r[pos:], n, ByLines
		}
		// The line that ends at pos (its '\n' included, if any).
		search := pos
		if r[pos-1] == '\n' {
			search = pos - 1
		}
		start := bytes.LastIndexByte(r[lo:search], '\n') + 1 + lo
		if int64(len(r)-start) > maxBytes {
			return r[pos:], n, ByBytes
		}
		pos = start
		n++
	}
	if pos > 0 || !startsLine {
		return r[pos:], n, ByBytes // the line before pos is cut off in the ring
	}
	return r[pos:], n, ""
}

// utf8Prefix returns the longest prefix of b of at most n bytes that does
// not split a character.
func utf8Prefix(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return b[:n]
}

// utf8Suffix returns the longest suffix of b of at most n bytes that does
// not split a character.
func utf8Suffix(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	i := len(b) - n
	for i < len(b) && !utf8.RuneStart(b[i]) {
		i++
	}
	return b[i:]
}
