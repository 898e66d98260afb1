package output

import (
	"bytes"
	"io"
)

// Finding the failure lines of a stream costs nothing while it streams:
// the pipeline's hot path is vectorised scans at a few GB/s, and any look
// at each line would cost more than the rest of it. They are found when a
// result cuts lines, in the part that was cut, read back from where the
// whole stream is kept (the spill file, or the prefix held in memory).
// The scan goes on from where the last look left it, so a job looked at
// again and again is scanned once; blocks that hold no needle are passed
// over with a few vectorised searches.

// failureBlock is how much of a stream a scan reads at a time.
const failureBlock = 256 << 10

// maxFailureKeep bounds the failure lines a scan keeps the position of
// (at each end), however many it counts.
const maxFailureKeep = 1 << 14

// A failureAt is a failure line: its number (in the window) and offset.
type failureAt = lineAt

// A failureIndex is what a scan of a window keeps: the first keep failure
// lines and the last keep of them, and how many it counted. When the
// head and the tail of a view show fewer than keep lines, every failure
// line they show is among the kept ones, and the count of the part cut
// between them is exact.
type failureIndex struct {
	keep  int
	first []failureAt
	last  []failureAt // a ring once full
	next  int
	count int64
	// off is the stream offset of the next line to scan, line its number
	// in the window.
	off, line int64
	buf       []byte
}

func newFailureIndex(keep int, off int64) *failureIndex {
	return &failureIndex{keep: min(keep, maxFailureKeep), off: off, line: 1}
}

func (x *failureIndex) add(f failureAt) {
	x.count++
	if len(x.first) < x.keep {
		x.first = append(x.first, f)
	}
	if len(x.last) < x.keep {
		x.last = append(x.last, f)
		return
	}
	x.last[x.next] = f
	x.next = (x.next + 1) % x.keep
}

// scan reads r from the index's offset up to end and notes the failure
// lines. A last line without a '\n' is scanned only when final (the
// stream has ended): until then it may still grow.
func (x *failureIndex) scan(r io.ReaderAt, end int64, final bool) {
	if x.buf == nil {
		x.buf = make([]byte, failureBlock)
	}
	for x.off < end {
		n, err := r.ReadAt(x.buf[:min(int64(len(x.buf)), end-x.off)], x.off)
		b := x.buf[:n]
		if n == 0 {
			return
		}
		last := x.off+int64(n) == end
		k := bytes.LastIndexByte(b, '\n')
		switch {
		case k >= 0:
			b = b[:k+1]
		case !last:
			// One line longer than a block: its first block is matched,
			// and the scan goes on after its end.
			if IsFailureLine(b) {
				x.add(failureAt{x.line, x.off})
			}
			x.skipLine(r, end)
			continue
		case !final:
			return
		}
		x.block(b)
		if err != nil && err != io.EOF {
			return
		}
		if last && final && x.off < end {
			x.block(x.buf[k+1 : n])
		}
	}
}

// block notes the failure lines of b, whole lines from offset x.off.
func (x *failureIndex) block(b []byte) {
	if !mayFail(b) {
		x.line += int64(bytes.Count(b, newline))
		if len(b) > 0 && b[len(b)-1] != '\n' {
			x.line++
		}
		x.off += int64(len(b))
		return
	}
	for len(b) > 0 {
		k := bytes.IndexByte(b, '\n')
		line := b
		if k >= 0 {
			line = b[:k]
		}
		if IsFailureLine(line) {
			x.add(failureAt{x.line, x.off})
		}
		x.line++
		x.off += int64(len(line))
		if k < 0 {
			return
		}
		x.off++
		b = b[k+1:]
	}
}

// skipLine moves the scan past the end of the line it is in.
func (x *failureIndex) skipLine(r io.ReaderAt, end int64) {
	for x.off < end {
		n, _ := r.ReadAt(x.buf[:min(int64(len(x.buf)), end-x.off)], x.off)
		if n == 0 {
			x.off = end
			return
		}
		if k := bytes.IndexByte(x.buf[:n], '\n'); k >= 0 {
			x.off += int64(k + 1)
			x.line++
			return
		}
		x.off += int64(n)
	}
}

// within returns the kept failure lines from line a to line b (window
// numbering), in order, and how many failure lines lie there in all.
func (x *failureIndex) within(a, b int64) (kept []failureAt, count int64) {
	if b < a || x.count == 0 {
		return nil, 0
	}
	var before, after int64
	for _, f := range x.first {
		switch {
		case f.line < a:
			before++
		case f.line <= b:
			kept = append(kept, f)
		}
	}
	if int64(len(x.first)) == x.count {
		return kept, int64(len(kept))
	}
	top := x.first[len(x.first)-1].line
	ring := append(x.last[x.next:len(x.last):len(x.last)], x.last[:x.next]...)
	for _, f := range ring {
		switch {
		case f.line > b:
			after++
		case f.line >= a && f.line > top:
			kept = append(kept, f)
		}
	}
	return kept, max(int64(len(kept)), x.count-before-after)
}
