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

	// Lines cut by the line cutter, numbered from the window's first
	// line: those that may be in the head (no more than the lines the
	// head can show), and the last ones, as many as the tail can show.
	// Nothing is allocated until a line is cut.
	headCut []int64
	tailCut cutRing
}

// A cutRing keeps the last line numbers added to it, up to its size.
type cutRing struct {
	size  int
	lines []int64
	next  int // where the next number goes once lines is full
}

func (r *cutRing) add(n int64) {
	if len(r.lines) < r.size {
		r.lines = append(r.lines, n)
		return
	}
	r.lines[r.next] = n
	r.next = (r.next + 1) % r.size
}

// in counts the kept numbers from lo to hi and returns the first and the
// last of them (0 when none).
func (r *cutRing) in(lo, hi int64) (count, first, last int64) {
	for _, n := range r.lines {
		if n < lo || n > hi {
			continue
		}
		count++
		if first == 0 || n < first {
			first = n
		}
		last = max(last, n)
	}
	return count, first, last
}

// markCut records that the line being written was cut.
func (w *window) markCut() {
	n := w.nl + 1
	if n <= int64(w.lim.MaxLines) {
		w.headCut = append(w.headCut, n)
	}
	w.tailCut.size = w.lim.MaxLines
	w.tailCut.add(n)
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
	// The head, as the ring, grows as bytes come.
	return w
}

func (w *window) write(b []byte) {
	if len(b) == 0 {
		return
	}
	w.bytes += int64(len(b))
	w.nl += int64(bytes.Count(b, newline))
	w.last = b[len(b)-1]
	if room := w.headCap - len(w.head); room > 0 {
		w.head = appendBounded(w.head, b[:min(room, len(b))], w.headCap)
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
	w.headCut = w.headCut[:0]
	w.tailCut.lines, w.tailCut.next = w.tailCut.lines[:0], 0
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

	// Cut lines among those shown (window numbering): how many, and the
	// first and last of them; 0 when none.
	linesCut          int64
	firstCut, lastCut int64
}

// countCuts fills the view's counts of the shown lines that were cut.
func (w *window) countCuts(v *view) {
	for _, n := range w.headCut {
		if n > v.headLines {
			break
		}
		v.linesCut++
		if v.firstCut == 0 {
			v.firstCut = n
		}
		v.lastCut = n
	}
	if v.tailLines > 0 {
		c, first, last := w.tailCut.in(v.totalLines-v.tailLines+1, v.totalLines)
		v.linesCut += c
		if v.firstCut == 0 {
			v.firstCut = first
		}
		if last > 0 {
			v.lastCut = last
		}
	}
}

// viewWithin computes what the window shows, with at most within (≤ the
// limits' MaxBytes) bytes of content: the budget of a result gives a
// stream less than its own limit when another stream needs the room. Once
// the stream does not fit MaxLines and MaxBytes, whole lines are taken
// (from the start, the end, or both by the head share) up to the
// shown-lines and byte limits; a single line longer than the byte limit is
// shown partially. truncated_by is "lines" when the shown lines reach the
// line limit, else "bytes". The buffers hold enough for
// any smaller limit: the head of a smaller window is a prefix of the head
// buffer, its tail a suffix of the ring.
func (w *window) viewWithin(within int) view {
	within = max(1, min(within, w.lim.MaxBytes))
	v := w.viewBytes(within)
	if w.lim.MaxTokens <= 0 || viewTokens(v) <= w.lim.MaxTokens {
		return v
	}
	// The token limit binds: the largest byte budget whose view fits
	// it, found by halving (the view of a smaller budget is a part of
	// the view of a larger one, so its estimate is no larger, give or
	// take the token a cut run may add).
	lo, hi := 0, within // the view of lo fits (0: nothing does), hi's does not
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if viewTokens(w.viewBytes(mid)) <= w.lim.MaxTokens {
			lo = mid
		} else {
			hi = mid
		}
	}
	// Even one byte over the limit still shows one character: a result
	// always shows something of a stream that has content.
	v = w.viewBytes(max(1, lo))
	v.truncatedBy = ByTokens
	return v
}

// viewTokens is the estimate of the content a view shows.
func viewTokens(v view) int { return EstimateTokens(v.head) + EstimateTokens(v.tail) }

// viewBytes is viewWithin without the token limit.
func (w *window) viewBytes(within int) view {
	lim := w.lim
	lim.MaxBytes = max(1, min(within, lim.MaxBytes))
	v := view{totalLines: w.lines()}
	if v.totalLines <= int64(lim.MaxLines) && w.bytes <= int64(lim.MaxBytes) {
		if w.lim.Strategy == Head {
			v.head = w.head
		} else {
			v.head = w.ring.bytes()
		}
		v.headLines = v.totalLines
		w.countCuts(&v)
		return v
	}
	maxLines, maxBytes := int64(lim.shownLines()), int64(lim.MaxBytes)
	switch lim.Strategy {
	case Head:
		v.head, v.headLines = headLines(w.head, maxLines, maxBytes)
		if v.headLines == 0 {
			v.head = utf8Prefix(w.head, int(maxBytes))
			v.headLines, v.firstPartial = 1, true
		}
	case Tail:
		r := w.ring.bytes()
		v.tail, v.tailLines = tailLines(r, w.ringStart(), maxLines, maxBytes)
		if v.tailLines == 0 {
			v.tail = utf8Suffix(r, int(maxBytes))
			v.tailLines, v.lastPartial = 1, true
		}
	case HeadTail:
		hl := int64(math.Floor(lim.HeadShare * float64(maxLines)))
		headCap := min(int64(len(w.head)), int64(math.Floor(lim.HeadShare*float64(maxBytes))))
		v.head, v.headLines = headLines(w.head, hl, headCap)
		r := w.ring.bytes()
		v.tail, v.tailLines = tailLines(r, w.ringStart(),
			maxLines-v.headLines, maxBytes-int64(len(v.head)))
		if v.tailLines == 0 && v.headLines == 0 {
			v.tail = utf8Suffix(r, int(maxBytes))
			v.tailLines, v.lastPartial = 1, true
		}
	}
	v.truncatedBy = ByBytes
	v.omittedLines = v.totalLines - v.headLines - v.tailLines
	v.omittedBytes = w.bytes - int64(len(v.head)) - int64(len(v.tail))
	switch {
	case v.firstPartial, v.lastPartial:
		v.omittedLines = v.totalLines - 1
	case v.headLines+v.tailLines == maxLines:
		v.truncatedBy = ByLines
	}
	if !v.firstPartial && !v.lastPartial {
		w.countCuts(&v)
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
// and maxBytes bytes, and returns them and their count. A last line without
// its '\n' is never taken: b is a head buffer that may have cut it.
func headLines(b []byte, maxLines, maxBytes int64) ([]byte, int64) {
	var n int64
	end := 0
	for n < maxLines {
		k := bytes.IndexByte(b[end:], '\n')
		if k < 0 || int64(end+k+1) > maxBytes {
			break
		}
		end += k + 1
		n++
	}
	return b[:end], n
}

// tailLines takes whole lines from the end of r, at most maxLines lines and
// maxBytes bytes, and returns them and their count. startsLine says whether
// r[0] begins a line; if not, r[0] is the byte before the kept part and the
// first line in r is incomplete, so it is never taken.
func tailLines(r []byte, startsLine bool, maxLines, maxBytes int64) ([]byte, int64) {
	lo := 0
	if !startsLine {
		k := bytes.IndexByte(r, '\n')
		if k < 0 {
			return nil, 0
		}
		lo = k + 1
	}
	pos := len(r)
	var n int64
	for pos > lo && n < maxLines {
		// The line that ends at pos (its '\n' included, if any).
		search := pos
		if r[pos-1] == '\n' {
			search = pos - 1
		}
		start := bytes.LastIndexByte(r[lo:search], '\n') + 1 + lo
		if int64(len(r)-start) > maxBytes {
			break
		}
		pos = start
		n++
	}
	return r[pos:], n
}

// utf8Prefix returns the longest prefix of b of at most n bytes that does
// not split a character. b holds whole characters, except perhaps a last one
// that a buffer cut short.
func utf8Prefix(b []byte, n int) []byte {
	b = b[:min(n, len(b))]
	// Drop a last character that is not whole.
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// utf8Suffix returns the longest suffix of b of at most n bytes that does
// not split a character.
func utf8Suffix(b []byte, n int) []byte {
	i := len(b) - min(n, len(b))
	for i < len(b) && !utf8.RuneStart(b[i]) {
		i++
	}
	return b[i:]
}
