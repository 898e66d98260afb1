package output

import (
	"bufio"
	"io"
	"sort"
)

// Finding the shapes of a cut stream, like finding its failure lines,
// costs nothing while it streams: it is done when a result cuts lines,
// over the window read back from where the whole stream is kept, in one
// pass and bounded memory. It counts the lines of each shape (at most
// maxShapes shapes are told apart; a line of any other shape, or too
// long to have one, is a rare line of its own) and keeps the places of
// the first lines of each: a shape of fewer than minShapeLines lines is
// rare, and all its lines are among those kept.

// maxShapes bounds the shapes a scan tells apart.
const maxShapes = 4096

// minShapeLines is the fewest lines a shape stands for in a result: a
// shape with fewer is rare, and its lines are shown as they are.
const minShapeLines = 8

// maxRareKeep bounds the rare lines whose place a scan keeps, at each end.
const maxRareKeep = 4096

// A shapeStat is what a scan knows of one shape: how many lines have it,
// the first two and the last two of them (window numbering), and where
// its first line starts in the stream.
type shapeStat struct {
	count         int64
	first, second int64
	penult, last  int64
	off           int64
	frequent      bool
	// The first lines of the shape: all of them when it is rare.
	some  [minShapeLines - 1]lineAt
	nsome int
}

// A lineAt is a line of the window: its number and stream offset.
type lineAt struct{ line, off int64 }

// What a line of the window is to a digest.
const (
	lineRare  = iota // shown as itself
	lineShape        // one of a frequent shape's lines
	lineBlank        // empty, or blanks only
)

// A lineInfo is a line at an end of the window and what it is.
type lineInfo struct {
	lineAt
	kind  int
	shape uint64
}

// A shapeIndex is what the scans of one window found.
type shapeIndex struct {
	from, end int64 // stream offsets scanned
	lines     int64 // lines in the window
	shapes    map[uint64]*shapeStat
	// Lines no shape stands for: too long or past maxShapes (the first
	// maxRareKeep and the last maxRareKeep of them), and the lines of
	// the rare shapes (all of them); rare counts them all.
	rareFirst, rareLast []lineAt
	rareNext            int
	rareShaped          []lineAt
	rare                int64
	// Blank lines, which no shape stands for and no result numbers.
	blank int64
	// The first and the last maxDigestEnd lines of the window.
	first    []lineInfo
	last     []lineInfo
	lastNext int
}

// scanShapes reads the window r holds from offset from to end, whole
// lines, and finds its shapes and its rare lines.
func scanShapes(r io.ReaderAt, from, end int64) *shapeIndex {
	x := &shapeIndex{from: from, end: end, shapes: make(map[uint64]*shapeStat)}
	// Lines of one shape come in runs: the last shape is checked before
	// the map.
	var prev *shapeStat
	var prevHash uint64
	eachLine(r, from, end, func(n, off int64, line []byte, whole bool) {
		x.lines = n
		l := lineInfo{lineAt: lineAt{n, off}, kind: lineRare}
		if whole && isBlank(line) {
			l.kind = lineBlank
			x.blank++
			x.addEnd(l)
			return
		}
		h, ok := shapeHash(line)
		var s *shapeStat
		if ok && whole {
			if prev != nil && h == prevHash {
				s = prev
			} else if s = x.shapes[h]; s == nil && len(x.shapes) < maxShapes {
				s = &shapeStat{first: n, off: off}
				x.shapes[h] = s
			}
		}
		if s == nil {
			x.addRare(l.lineAt)
			x.addEnd(l)
			return
		}
		prev, prevHash = s, h
		s.count++
		if s.count == 2 {
			s.second = n
		}
		s.penult, s.last = s.last, n
		if s.nsome < len(s.some) {
			s.some[s.nsome] = l.lineAt
			s.nsome++
		}
		l.kind, l.shape = lineShape, h
		x.addEnd(l)
	})
	// The rare shapes' lines join the rare lines; the ends say which of
	// their lines are rare.
	for _, s := range x.shapes {
		s.frequent = s.count >= minShapeLines
		if !s.frequent {
			x.rare += s.count
			x.rareShaped = append(x.rareShaped, s.some[:s.nsome]...)
		}
	}
	for _, ends := range [][]lineInfo{x.first, x.last} {
		for i, l := range ends {
			if l.kind == lineShape && !x.shapes[l.shape].frequent {
				ends[i].kind = lineRare
			}
		}
	}
	return x
}

// isBlank reports whether a line is empty or blanks only.
func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// addEnd keeps the first and the last lines of the window.
func (x *shapeIndex) addEnd(l lineInfo) {
	if len(x.first) < maxDigestEnd {
		x.first = append(x.first, l)
	}
	if len(x.last) < maxDigestEnd {
		x.last = append(x.last, l)
		return
	}
	x.last[x.lastNext] = l
	x.lastNext = (x.lastNext + 1) % maxDigestEnd
}

// lastLines returns the last lines kept, the window's last one first.
func (x *shapeIndex) lastLines() []lineInfo {
	out := make([]lineInfo, 0, len(x.last))
	for i := len(x.last) - 1; i >= 0; i-- {
		out = append(out, x.last[(x.lastNext+i)%len(x.last)])
	}
	return out
}

// shapeOf returns the frequent shape of a line, nil when it has none.
func (x *shapeIndex) shapeOf(line []byte, whole bool) *shapeStat {
	if !whole {
		return nil
	}
	h, ok := shapeHash(line)
	if !ok {
		return nil
	}
	if s := x.shapes[h]; s != nil && s.frequent {
		return s
	}
	return nil
}

func (x *shapeIndex) addRare(l lineAt) {
	x.rare++
	if len(x.rareFirst) < maxRareKeep {
		x.rareFirst = append(x.rareFirst, l)
		return
	}
	if len(x.rareLast) < maxRareKeep {
		x.rareLast = append(x.rareLast, l)
		return
	}
	x.rareLast[x.rareNext] = l
	x.rareNext = (x.rareNext + 1) % maxRareKeep
}

// rareLines returns the rare lines kept, in order.
func (x *shapeIndex) rareLines() []lineAt {
	out := make([]lineAt, 0, len(x.rareFirst)+len(x.rareLast)+len(x.rareShaped))
	out = append(out, x.rareFirst...)
	out = append(out, x.rareLast[x.rareNext:]...)
	out = append(out, x.rareLast[:x.rareNext]...)
	out = append(out, x.rareShaped...)
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// eachLine calls f for every line of r from offset from to end, numbered
// from 1, without its '\n'. A line longer than the reader's buffer is
// given as its first part, with whole false.
func eachLine(r io.ReaderAt, from, end int64, f func(n, off int64, line []byte, whole bool)) {
	br := bufio.NewReaderSize(io.NewSectionReader(r, from, end-from), 64<<10)
	off, n := from, int64(0)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) == 0 && err != nil {
			return
		}
		n++
		size := int64(len(line))
		whole := true
		if err == bufio.ErrBufferFull {
			whole = false
			f(n, off, line, false)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				size += int64(len(line))
			}
			off += size
			if err != nil && err != io.EOF {
				return
			}
			continue
		}
		if line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
		}
		f(n, off, line, whole)
		off += size
		if err != nil {
			return
		}
	}
}
