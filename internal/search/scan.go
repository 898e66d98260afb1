package search

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"sync"
	"unicode/utf8"

	"github.com/spillway-dev/spillway/internal/confine"
)

// Buffer sizes of the file scanner. A file is read in readBuffer chunks
// cut at line ends: a buffer that stays in the CPU's cache while it is
// scanned, and that is allocated once per scanner (a buffer sized to each
// file cost more in zeroed pages than it saved in reads). A line longer
// than the buffer grows it, up to maxBuffer; a line longer than maxBuffer
// is scanned in a streaming way (see longLine), so memory stays bounded
// whatever the file.
const (
	minBuffer  = 64 << 10
	readBuffer = 256 << 10
	maxBuffer  = 4 << 20
	// binarySniff is how much of the start of a file decides that it is
	// binary (it holds a NUL byte).
	binarySniff = 8 << 10
)

// scanConfig says what to collect from each file.
type scanConfig struct {
	m *Matcher
	// context is the number of lines kept before and after each match.
	context int
	// lines: collect the matching (and context) lines; otherwise only
	// count matches.
	lines bool
	// maxMatches stops a file's scan after this many matching lines (0:
	// no cap).
	maxMatches int
	// keep bounds the bytes of a line kept for display.
	keep int
	// root, when set, is checked against each opened file.
	root *confine.Root
}

// A hit is one line to show: a match or a context line.
type hit struct {
	line  int64
	match bool
	text  []byte // at most keep bytes of the line, without the line end
	long  bool   // the line is longer than text
	// A long matching line whose first match lies past the start of what
	// keep holds is kept around that match: skip is the number of the
	// line's characters before text, col the 1-based character column of
	// the match (0 when text is the line's start).
	skip, col int64
}

// fileResult is what the scan of one file found.
type fileResult struct {
	hits    []hit
	matches int
	binary  bool
	gone    bool  // the file vanished before it could be opened
	err     error // it could not be opened or read (reported)
	// size is the memory the hits hold; capped is set when the file's
	// hits reached maxHeld and its scan stopped there.
	size   int64
	capped bool
	// deferred: not scanned, because too much was held ahead of the
	// visit; the visitor scans it itself.
	deferred bool
}

// holdLongLines makes the scanner grow its buffer for every line longer
// than it, up to maxBuffer, as it does when there is no prefilter; longLine
// streams those it can (false). Tests set it to compare the two.
var holdLongLines = false

// maxHeld bounds the memory of the lines grep holds for files searched
// ahead of the one being shown, and of one file's lines. It is far above
// anything a result shows (50 KiB) or spills (100 MiB is the spill cap).
// A variable so that tests can lower it.
var maxHeld int64 = 32 << 20

// hitOverhead is what a hit costs beside its text.
const hitOverhead = 48

// A scanner searches files one at a time; each goroutine has its own.
type scanner struct {
	cfg *scanConfig
	buf []byte
	big []byte // grown for long lines (grow)
	low []byte
	pre prefilter
	// file is the file being scanned.
	file rawFile

	// Per-file state.
	result    fileResult
	res       *fileResult // &result while a file is scanned
	lineNo    int64       // number of the line at the start of the buffer
	lastOut   int64       // last line number added to res.hits
	afterLeft int         // context lines still to add after the last match
	ring      []hit       // up to context lines before the buffer, oldest first
	done      bool        // maxMatches reached
}

func newScanner(cfg *scanConfig) *scanner {
	return &scanner{cfg: cfg}
}

// scanBufs holds read buffers between searches.
var scanBufs = sync.Pool{New: func() any {
	b := make([]byte, readBuffer)
	return &b
}}

// readBack reads the n bytes at off, a long line read once already, into
// the scanner's large buffer. A file that shrank since gives fewer.
func (s *scanner) readBack(f *rawFile, off int64, n int) ([]byte, error) {
	b := s.bigBuffer(n)[:n]
	k, err := f.ReadAt(b, off)
	if err != nil && err != io.EOF {
		return nil, err
	}
	return b[:k], nil
}

// bigBuffer returns the scanner's buffer for long lines, made at least n
// bytes (a power of two times readBuffer, at most maxBuffer) when it is
// shorter.
func (s *scanner) bigBuffer(n int) []byte {
	if len(s.big) < n {
		want := 2 * readBuffer
		for want < n && want < maxBuffer {
			want *= 2
		}
		s.big = make([]byte, want)
	}
	return s.big
}

// grow returns a buffer larger than buf, holding its first n bytes: large
// enough for the rest of the file (rest bytes, 0 when not known) when
// maxBuffer is, in one step, so that a long line costs one buffer, not a
// series of doublings. The scanner keeps the largest it made for the
// next long line (a tree with one has more: generated and minified
// files): a new buffer of megabytes costs its zeroing and a share of a
// garbage collection, a pool lost it at every collection.
func (s *scanner) grow(buf []byte, n int, rest int64) []byte {
	want := 2 * len(buf)
	for int64(want) <= rest && want < maxBuffer {
		want *= 2
	}
	big := s.bigBuffer(min(want, maxBuffer))
	copy(big, buf[:n])
	return big
}

// release gives the scanner's read buffer back for other searches; one
// grown for long lines goes with the scanner.
func (s *scanner) release() {
	if b := s.buf; len(b) == readBuffer {
		scanBufs.Put(&b)
	}
	s.buf = nil
}

// scanFile searches the regular file at path.
func (s *scanner) scanFile(ctx context.Context, path string) fileResult {
	return s.scanEntry(ctx, fileEntry(path))
}

// scanEntry searches the regular file a walk met.
func (s *scanner) scanEntry(ctx context.Context, e Entry) fileResult {
	// The result is built in the scanner (already on the heap), so that it
	// costs no allocation of its own.
	s.result = fileResult{}
	res := &s.result
	f := &s.file
	if err := openReadAt(f, e); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			res.gone = true
		} else {
			res.err = err
		}
		return *res
	}
	defer f.Close()
	if err := f.check(s.cfg.root); err != nil { // changed since the check
		res.err = err
		return *res
	}
	// On a local file system (raw calls) the size is asked only of a file
	// that fills the read buffer: a shorter read is the whole file there,
	// and most files are shorter.
	size := int64(-1)
	if !f.raw {
		var err error
		if size, err = f.regularSize(); err != nil {
			res.err = err
			return *res
		}
	}
	s.res = res
	s.lineNo, s.lastOut, s.afterLeft, s.done = 1, 0, 0, false
	s.ring = s.ring[:0]
	if err := s.scan(ctx, f, size); err != nil {
		res.err = err
	}
	s.res = nil
	return *res
}

// regularSize returns the size of the file, or an error when it is not a
// regular file.
func (f *rawFile) regularSize() (int64, error) {
	regular, size, err := f.stat()
	if err == nil && !regular {
		err = errors.New("not a regular file")
	}
	return size, err
}

// A chunk is the part of a file that the scanner's buffer holds.
type chunk struct {
	buf  []byte
	n    int   // valid bytes in buf
	off  int64 // file offset of buf[0]
	eof  bool  // everything up to off+n is all there is
	size int64 // the file's size; -1 when it was not asked
}

// scan searches the open file f, of the given size (-1: not asked yet).
func (s *scanner) scan(ctx context.Context, f *rawFile, size int64) error {
	if s.buf == nil {
		s.buf = *scanBufs.Get().(*[]byte)
	}
	c := chunk{buf: s.buf, size: size}
	first := true
	for {
		if err := c.fill(f); err != nil {
			return err
		}
		if first {
			first = false
			binary, err := s.firstChunk(f, &c)
			if err != nil || binary {
				s.res.binary = binary
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		end := c.n
		if !c.eof {
			nl := bytes.LastIndexByte(c.buf[:c.n], '\n')
			if nl < 0 {
				stop, err := s.overlong(ctx, f, &c)
				if err != nil || stop {
					return err
				}
				continue
			}
			end = nl + 1
		}
		final := c.eof && end == c.n
		s.region(c.buf[:end], final)
		if s.done || final {
			return nil
		}
		copy(c.buf, c.buf[end:c.n])
		c.n -= end
		c.off += int64(end)
	}
}

// fill reads into the chunk until its buffer is full or the file ends.
func (c *chunk) fill(f *rawFile) error {
	for c.n < len(c.buf) && !c.eof {
		k, err := f.Read(c.buf[c.n:])
		c.n += k
		switch {
		case err == io.EOF:
			c.eof = true
		case err != nil:
			return err
		case c.size < 0 && c.n < len(c.buf):
			// A short read of a regular file on a local file
			// system is its end: spare a read.
			c.eof = true
		case c.size > 0 && c.off+int64(c.n) == c.size:
			// The whole file as fstat saw it: spare a read.
			c.eof = true
		}
	}
	return nil
}

// firstChunk checks the start of a file, once read, and reports whether
// the file is binary (a NUL byte near its start). A file that may be
// long is checked to be regular first: an entry swapped for a FIFO or a
// device since it was listed must not stream on.
func (s *scanner) firstChunk(f *rawFile, c *chunk) (bool, error) {
	if c.size < 0 && !c.eof {
		var err error
		if c.size, err = f.regularSize(); err != nil {
			return false, err
		}
		c.eof = c.off+int64(c.n) == c.size
	}
	return bytes.IndexByte(c.buf[:min(c.n, binarySniff)], 0) >= 0, nil
}

// overlong handles a buffer that holds no line end. Without a literal to
// look for (or with holdLongLines), the buffer grows to hold the line, up
// to maxBuffer; otherwise longLine reads the line through. It reports
// whether the scan is over.
func (s *scanner) overlong(ctx context.Context, f *rawFile, c *chunk) (bool, error) {
	if len(c.buf) < maxBuffer && (len(s.cfg.m.primary) == 0 || holdLongLines) {
		c.buf = s.grow(c.buf, c.n, c.size-c.off)
		return false, nil
	}
	if err := s.longLine(ctx, f, c); err != nil {
		return true, err
	}
	return s.done || (c.eof && c.n == 0), nil
}

// region processes buf, whole lines that start at line s.lineNo (the last
// one may lack its '\n' at the end of the file, when final is set).
func (s *scanner) region(buf []byte, final bool) {
	m := s.cfg.m
	low := s.folded(buf)
	usePre := len(m.primary) > 0
	if usePre {
		s.pre.reset(m.finders, low)
	}
	lineNo := s.lineNo
	pos := 0
	for pos < len(buf) && !s.done {
		if s.afterLeft > 0 || !usePre {
			// Line by line: after a match (its context may hold other
			// matches), or when nothing can be scanned for.
			le := lineEnd(buf, pos)
			if m.matchLine(buf[pos:le], low[pos:le]) {
				s.match(buf, pos, le, lineNo)
			} else if s.afterLeft > 0 {
				s.add(lineNo, buf[pos:le], false)
				s.afterLeft--
			}
			pos = le + 1
			lineNo++
			continue
		}
		c := s.pre.find(pos)
		if c < 0 {
			break
		}
		ls := pos + bytes.LastIndexByte(buf[pos:c], '\n') + 1
		lineNo += int64(bytes.Count(buf[pos:ls], newline))
		le := lineEnd(buf, c)
		if m.matchCandidate(buf[ls:le], low[ls:le]) {
			s.match(buf, ls, le, lineNo)
		}
		pos = le + 1
		lineNo++
	}
	if final {
		return
	}
	if pos < len(buf) {
		lineNo += int64(bytes.Count(buf[pos:], newline))
	}
	if s.cfg.context > 0 && s.cfg.lines {
		s.keepRing(buf, lineNo)
	}
	s.lineNo = lineNo
}

// folded returns b as the matcher compares it: ASCII-lowered into s.low
// (reused) when the search ignores case, b itself otherwise.
func (s *scanner) folded(b []byte) []byte {
	if !s.cfg.m.lits.Fold {
		return b
	}
	if cap(s.low) < len(b) {
		s.low = make([]byte, len(b))
	}
	low := s.low[:len(b)]
	lowerASCII(low, b)
	return low
}

var newline = []byte{'\n'}

// lineEnd returns the index of the '\n' that ends the line holding buf[i],
// or len(buf).
func lineEnd(buf []byte, i int) int {
	if k := bytes.IndexByte(buf[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(buf)
}

// match records the matching line buf[ls:le], number lineNo, with the
// context lines before it.
func (s *scanner) match(buf []byte, ls, le int, lineNo int64) {
	s.res.matches++
	if s.cfg.lines {
		if n := s.cfg.context; n > 0 {
			s.before(buf, ls, lineNo)
			s.afterLeft = n
		}
		s.add(lineNo, buf[ls:le], true)
	}
	if s.cfg.maxMatches > 0 && s.res.matches >= s.cfg.maxMatches {
		s.done = true
	}
}

// before adds the context lines before line lineNo (which starts at
// buf[ls]) that were not added yet: from the buffer, then from the ring.
func (s *scanner) before(buf []byte, ls int, lineNo int64) {
	first := max(lineNo-int64(s.cfg.context), s.lastOut+1, 1)
	if first >= lineNo {
		return
	}
	// Collect backwards, then add in order.
	var spans [][2]int
	n := lineNo
	end := ls - 1 // the '\n' ending the previous line
	for n > first && end >= 0 {
		start := bytes.LastIndexByte(buf[:end], '\n') + 1
		spans = append(spans, [2]int{start, end})
		n--
		end = start - 1
	}
	// Lines before the buffer come from the ring.
	for _, h := range s.ring {
		if h.line >= first && h.line < n {
			s.hits(h)
		}
	}
	for i := len(spans) - 1; i >= 0; i-- {
		sp := spans[i]
		s.add(lineNo-int64(i)-1, buf[sp[0]:sp[1]], false)
	}
}

func (s *scanner) hits(h hit) {
	s.res.hits = append(s.res.hits, h)
	s.lastOut = h.line
	s.res.size += int64(len(h.text)) + hitOverhead
	if s.res.size >= maxHeld {
		s.res.capped = true
		s.done = true
	}
}

// add records one line to show.
func (s *scanner) add(lineNo int64, line []byte, match bool) {
	s.hits(s.makeHit(lineNo, line, match))
}

func (s *scanner) makeHit(lineNo int64, line []byte, match bool) hit {
	h := hit{line: lineNo, match: match}
	if len(line) > s.cfg.keep {
		start := 0
		if loc := s.cfg.m.re.FindIndex(line); match && loc != nil && loc[0] > s.cfg.keep/4 {
			// Keep the part of the line around its first match.
			start = max(0, loc[0]-s.cfg.keep/2)
			for start < loc[0] && !utf8.RuneStart(line[start]) {
				start++
			}
			h.skip = int64(utf8.RuneCount(line[:start]))
			h.col = int64(utf8.RuneCount(line[:loc[0]])) + 1
		}
		line = line[start:min(len(line), start+s.cfg.keep)]
		h.long = true
	} else {
		line = bytes.TrimSuffix(line, []byte{'\r'})
	}
	h.text = bytes.Clone(line)
	return h
}

// keepRing remembers the last context lines of buf (which ends before
// line next) for the context of a match early in the next buffer.
func (s *scanner) keepRing(buf []byte, next int64) {
	n := s.cfg.context
	var fresh []hit
	end := len(buf)
	if end > 0 && buf[end-1] == '\n' {
		end--
	}
	line := next - 1
	for len(fresh) < n && end >= 0 && line >= 1 && len(buf) > 0 {
		start := bytes.LastIndexByte(buf[:end], '\n') + 1
		fresh = append(fresh, s.makeHit(line, buf[start:end], false))
		line--
		end = start - 1
		if start == 0 {
			break
		}
	}
	// fresh is newest first; the old ring supplies what is missing.
	var ring []hit
	for _, h := range s.ring {
		if h.line <= line && h.line > next-1-int64(n) {
			ring = append(ring, h)
		}
	}
	for i := len(fresh) - 1; i >= 0; i-- {
		ring = append(ring, fresh[i])
	}
	s.ring = ring
}

// longLine handles a line longer than the buffer: the chunk starts with
// it, and no '\n' is in it. It reads on to the line's end, scanning for
// the prefilter's literals as it goes (a window of the longest literal's
// length is carried between reads), and keeps the start of the line for
// display. The chunk then holds what follows the line.
//
// A line with none of the literals cannot match, and was read without
// holding it: most long lines are minified code or data in a string, and
// a buffer grown to hold one is fresh memory, paid page by page. A line
// with one is scanned as any line, in the scanner's large buffer (a read
// back from the file), when it fits there (maxBuffer); then it is shown
// around its first match. A longer one is matched by running the regular
// expression over it as a stream (regexp.MatchReader), and shown from its
// start.
func (s *scanner) longLine(ctx context.Context, f *rawFile, c *chunk) error {
	lineNo := s.lineNo
	start := c.off
	head := bytes.Clone(c.buf[:min(c.n, s.cfg.keep+1)])
	found, end, ended, err := s.readLongLine(ctx, f, c)
	if err != nil {
		return err
	}
	whole := end - start // the line with its '\n'
	if ended {
		whole++
	}
	if found && len(s.cfg.m.primary) > 0 && whole <= maxBuffer {
		line, err := s.readBack(f, start, int(whole))
		if err != nil {
			return err
		}
		s.region(line, !ended) // without a '\n', the file's last line
		return nil
	}
	match, err := s.streamMatch(ctx, f, found, start, end)
	if err != nil {
		return err
	}
	s.longLineHit(head, lineNo, match) // longer than keep, so shown cut
	return nil
}

// readLongLine reads on to the end of the line that the chunk starts
// with, looking for the prefilter's literals in it; the chunk then holds
// what follows the line. It returns whether one was found (true when
// there are none to look for), the file offset of the line's end, and
// whether a '\n' ended it (not the end of the file).
func (s *scanner) readLongLine(ctx context.Context, f *rawFile, c *chunk) (found bool, end int64, ended bool, err error) {
	m := s.cfg.m
	found = len(m.primary) == 0
	overlap := max(m.maxLit-1, 0)
	for {
		nl := bytes.IndexByte(c.buf[:c.n], '\n')
		seg := c.buf[:c.n]
		if nl >= 0 {
			seg = c.buf[:nl]
		}
		if !found {
			found = containsAny(s.folded(seg), m.primary)
		}
		if nl >= 0 {
			end = c.off + int64(nl)
			c.n = copy(c.buf, c.buf[nl+1:c.n])
			c.off = end + 1
			return found, end, true, nil
		}
		if c.eof {
			end = c.off + int64(c.n)
			c.off, c.n = end, 0
			return found, end, false, nil
		}
		k := min(overlap, c.n)
		copy(c.buf, c.buf[c.n-k:c.n])
		c.off += int64(c.n - k)
		c.n = k
		if err := c.readFull(f); err != nil {
			return found, 0, false, err
		}
		if err := ctx.Err(); err != nil {
			return found, 0, false, err
		}
	}
}

// readFull reads into the chunk until its buffer is full or a read says
// the file ended.
func (c *chunk) readFull(f *rawFile) error {
	for c.n < len(c.buf) && !c.eof {
		r, err := f.Read(c.buf[c.n:])
		c.n += r
		if err == io.EOF {
			c.eof = true
		} else if err != nil {
			return err
		}
	}
	return nil
}

// streamMatch reports whether the long line at [start, end) of f
// matches, found saying whether it holds a literal of the prefilter:
// without one it cannot; with one, a search for literals alone is
// decided, and a regular expression is run over the line as a stream.
func (s *scanner) streamMatch(ctx context.Context, f *rawFile, found bool, start, end int64) (bool, error) {
	m := s.cfg.m
	if !found || m.lits.Exact {
		return found, nil
	}
	r := bufio.NewReaderSize(&ctxReader{ctx: ctx, r: io.NewSectionReader(f, start, end-start)}, minBuffer)
	match := m.re.MatchReader(r)
	return match, ctx.Err()
}

// longLineHit records the long line number lineNo, shown as head (its
// start): as a match, as a context line after one, and in the ring of
// lines before the next.
func (s *scanner) longLineHit(head []byte, lineNo int64, match bool) {
	switch {
	case match:
		s.match(head, 0, len(head), lineNo)
	case s.afterLeft > 0 && s.cfg.lines:
		s.add(lineNo, head, false)
		s.afterLeft--
	}
	if s.cfg.context > 0 && s.cfg.lines {
		s.ring = append(s.ring, s.makeHit(lineNo, head, false))
		if len(s.ring) > s.cfg.context {
			s.ring = s.ring[len(s.ring)-s.cfg.context:]
		}
	}
	s.lineNo = lineNo + 1
}

// ctxReader ends a read when its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, io.EOF
	}
	return c.r.Read(p)
}
