// Package difflines writes the unified diff of two streams of lines in
// bounded memory, whatever their size: the streams are compared a window
// at a time, and a long run of changes is written as consecutive hunks.
package difflines

import (
	"bufio"
	"fmt"
	"hash/maphash"
	"io"
)

// Bounds of the memory a diff takes: at most window lines or windowBytes
// bytes of each side are held, lines longer than maxLine are compared
// whole (by hash) but kept and written only in part, at most maxEdits
// edits are searched for within a window, and a hunk is written once it
// holds hunkLines lines.
const (
	window      = 4096
	windowBytes = 8 << 20
	maxLine     = 64 << 10
	maxEdits    = 1024
	hunkLines   = 1000
	context     = 3
)

// Stats says what a diff found.
type Stats struct {
	Removed, Added int64 // lines
	LinesA, LinesB int64
}

// Same reports whether the streams had the same lines.
func (s Stats) Same() bool { return s.Removed == 0 && s.Added == 0 }

type line struct {
	text string
	h    uint64
	n    int // bytes of the whole line
}

func (l line) eq(m line) bool { return l.h == m.h && l.n == m.n && l.text == m.text }

var seed = maphash.MakeSeed()

// A side reads one stream's lines into a window.
type side struct {
	r     *bufio.Reader
	lines []line
	bytes int
	eof   bool
	next  int64 // the number of lines[0]
	err   error
}

func (s *side) fill() {
	for !s.eof && len(s.lines) < window && s.bytes < windowBytes {
		l, err := s.read()
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
		}
		if l.n > 0 {
			s.lines = append(s.lines, l)
			s.bytes += len(l.text)
		}
	}
}

// read reads a line, its '\n' left out; a last line without one counts.
func (s *side) read() (line, error) {
	var h maphash.Hash
	h.SetSeed(seed)
	var text []byte
	n := 0
	for {
		frag, err := s.r.ReadSlice('\n')
		n += len(frag)
		h.Write(frag)
		if room := maxLine - len(text); room > 0 {
			text = append(text, frag[:min(room, len(frag))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(text) > 0 && text[len(text)-1] == '\n' {
			text = text[:len(text)-1]
		} else if n > maxLine {
			text = append(text, " [... line cut]"...)
		}
		return line{text: string(text), h: h.Sum64(), n: n}, err
	}
}

func (s *side) drop(k int) {
	for _, l := range s.lines[:k] {
		s.bytes -= len(l.text)
	}
	s.lines = append(s.lines[:0], s.lines[k:]...)
	s.next += int64(k)
}

// Unified writes to w the unified diff of a and b, headed by names, with
// three lines of context.
func Unified(w io.Writer, a, b io.Reader, nameA, nameB string) (Stats, error) {
	sa := &side{r: bufio.NewReaderSize(a, 64<<10), next: 1}
	sb := &side{r: bufio.NewReaderSize(b, 64<<10), next: 1}
	hw := &hunkWriter{w: bufio.NewWriterSize(w, 64<<10), nameA: nameA, nameB: nameB}
	var st Stats
	for {
		sa.fill()
		sb.fill()
		if len(sa.lines) == 0 && len(sb.lines) == 0 {
			break
		}
		final := sa.eof && sb.eof
		ops := editScript(sa.lines, sb.lines)
		// Commit the edits up to where half of a window is used (all of
		// them when both streams have ended): the rest is diffed again
		// with the lines that follow it. A side whose stream has ended
		// has no lines to follow, so it does not stop the commit: else a
		// file of many lines replaced by one of a few would commit a line
		// a window, each diffed again whole.
		i, j := 0, 0
		for _, op := range ops {
			if !final && ((!sa.eof && i >= len(sa.lines)/2) || (!sb.eof && j >= len(sb.lines)/2)) && (i > 0 || j > 0) {
				break
			}
			switch op {
			case same:
				hw.same(sa.lines[i], sa.next+int64(i), sb.next+int64(j))
				i++
				j++
			case del:
				hw.del(sa.lines[i], sa.next+int64(i), sb.next+int64(j))
				st.Removed++
				i++
			case ins:
				hw.ins(sb.lines[j], sa.next+int64(i), sb.next+int64(j))
				st.Added++
				j++
			}
		}
		sa.drop(i)
		sb.drop(j)
	}
	st.LinesA, st.LinesB = sa.next-1, sb.next-1
	hw.flush()
	if err := hw.w.Flush(); err != nil {
		return st, err
	}
	if sa.err != nil {
		return st, sa.err
	}
	return st, sb.err
}

type op uint8

const (
	same op = iota
	del
	ins
)

// editScript returns a shortest edit script from a to b (Myers), or, when
// more than maxEdits edits are needed, one that replaces the first half
// of each: not the shortest, but right, and found in bounded time and
// memory.
func editScript(a, b []line) []op {
	// The common prefix costs nothing to find.
	p := 0
	for p < len(a) && p < len(b) && a[p].eq(b[p]) {
		p++
	}
	ops := make([]op, p, len(a)+len(b))
	a, b = a[p:], b[p:]
	if len(a) == 0 || len(b) == 0 {
		return replaceLines(ops, len(a), len(b))
	}
	trace, found := forward(a, b)
	if found < 0 {
		ha, hb := max(1, len(a)/2), max(1, len(b)/2)
		ops = replaceLines(ops, ha, hb)
		return append(ops, editScript(a[ha:], b[hb:])...)
	}
	rev := backtrack(trace, found, len(a), len(b))
	for i := len(rev) - 1; i >= 0; i-- {
		ops = append(ops, rev[i])
	}
	return ops
}

// replaceLines appends to ops the deletion of n lines, then the
// insertion of m.
func replaceLines(ops []op, n, m int) []op {
	for range n {
		ops = append(ops, del)
	}
	for range m {
		ops = append(ops, ins)
	}
	return ops
}

// forward runs Myers' search from the start of a and b for at most
// maxEdits edits. It returns the furthest x reached on each diagonal
// before each step (trace[d] indexed k+d) and the number of edits of a
// shortest script, -1 when more are needed.
func forward(a, b []line) (trace [][]int32, found int) {
	n, m := len(a), len(b)
	off := maxEdits + 1
	v := make([]int32, 2*off+1)
	for d := 0; d <= maxEdits; d++ {
		trace = append(trace, append([]int32(nil), v[off-d:off+d+1]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			for x < n && y < m && a[x].eq(b[y]) {
				x++
				y++
			}
			v[off+k] = int32(x)
			if x >= n && y >= m {
				return trace, d
			}
		}
	}
	return trace, -1
}

// backtrack walks the trace back from (n, m) to (0, 0) and returns the
// edit script, last edit first.
func backtrack(trace [][]int32, found, n, m int) []op {
	var rev []op
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d]
		k := x - y
		pk := k - 1
		if k == -d || (k != d && prev[k-1+d] < prev[k+1+d]) {
			pk = k + 1
		}
		px := int(prev[pk+d])
		py := px - pk
		// The edit of step d leads from (px, py) to (ex, ey), and the
		// snake from there to (x, y).
		ex, ey := px+1, py
		if pk == k+1 {
			ex, ey = px, py+1
		}
		for x > ex && y > ey {
			rev = append(rev, same)
			x--
			y--
		}
		if pk == k+1 {
			rev = append(rev, ins)
		} else {
			rev = append(rev, del)
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		rev = append(rev, same)
		x--
		y--
	}
	return rev
}

// A hunkWriter writes the edits as unified hunks: context lines around
// each change, a hunk ended after 2×context unchanged lines, and written
// at most hunkLines lines at a time.
type hunkWriter struct {
	w            *bufio.Writer
	nameA, nameB string
	headed       bool

	before   []line // unchanged lines before the open hunk (the last context)
	body     []string
	open     bool
	startA   int64 // first line of the hunk in a and in b
	startB   int64
	lenA     int64
	lenB     int64
	trailing int // unchanged lines at the end of body
}

func (h *hunkWriter) same(l line, na, nb int64) {
	if !h.open {
		h.before = append(h.before, l)
		if len(h.before) > context {
			h.before = h.before[1:]
		}
		return
	}
	h.body = append(h.body, " "+l.text)
	h.lenA++
	h.lenB++
	h.trailing++
	if h.trailing >= 2*context {
		// Past the context of both sides: end the hunk with context
		// lines, and keep the rest as the next hunk's leading context.
		keep := h.trailing - context
		tail := h.body[len(h.body)-keep:]
		h.body = h.body[:len(h.body)-keep]
		h.lenA -= int64(keep)
		h.lenB -= int64(keep)
		h.flush()
		h.before = h.before[:0]
		for _, t := range tail {
			h.before = append(h.before, line{text: t[1:]})
		}
	}
}

func (h *hunkWriter) start(na, nb int64) {
	if h.open {
		return
	}
	h.open = true
	h.startA, h.startB = na-int64(len(h.before)), nb-int64(len(h.before))
	h.lenA, h.lenB = int64(len(h.before)), int64(len(h.before))
	for _, l := range h.before {
		h.body = append(h.body, " "+l.text)
	}
	h.before = h.before[:0]
}

func (h *hunkWriter) del(l line, na, nb int64) {
	h.start(na, nb)
	h.body = append(h.body, "-"+l.text)
	h.lenA++
	h.change()
}

func (h *hunkWriter) ins(l line, na, nb int64) {
	h.start(na, nb)
	h.body = append(h.body, "+"+l.text)
	h.lenB++
	h.change()
}

func (h *hunkWriter) change() {
	h.trailing = 0
	if len(h.body) >= hunkLines {
		a, b := h.startA+h.lenA, h.startB+h.lenB
		h.flush()
		h.open, h.startA, h.startB = true, a, b
	}
}

// flush writes the open hunk.
func (h *hunkWriter) flush() {
	if !h.open {
		return
	}
	if !h.headed {
		fmt.Fprintf(h.w, "--- %s\n+++ %s\n", h.nameA, h.nameB)
		h.headed = true
	}
	fmt.Fprintf(h.w, "@@ -%s +%s @@\n", span(h.startA, h.lenA), span(h.startB, h.lenB))
	for _, s := range h.body {
		h.w.WriteString(s)
		h.w.WriteByte('\n')
	}
	h.body = h.body[:0]
	h.open = false
	h.lenA, h.lenB, h.trailing = 0, 0, 0
}

// span is a hunk's range as unified diffs write it: "12,3", "12" for
// one line, "11,0" for none (the line before).
func span(start, n int64) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
