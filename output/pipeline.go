package output

import (
	"bytes"
	"errors"
	"io"
	"os"
	"unicode/utf8"
)

// A Spill receives the full stream once it no longer fits the limits.
type Spill interface {
	io.Writer
	// Path is where the spilled bytes can be read back.
	Path() string
	Close() error
}

// A SpillOpener creates the Spill for one stream. It is called at most once,
// and only when the output does not fit.
type SpillOpener func() (Spill, error)

// ErrSpillCapped is returned by a Spill's Write when its size cap is
// reached: the bytes before the cap were kept, the rest is not stored.
var ErrSpillCapped = errors.New("spill file size cap reached")

// SpillWhen says when a stream is spilled.
type SpillWhen int

const (
	// SpillOnCut spills as soon as anything would be left out.
	SpillOnCut SpillWhen = iota
	// SpillPastBytes spills only when the stream passes MaxBytes; a cut by
	// lines or by line length alone leaves no file.
	SpillPastBytes
)

// maxUnfinished bounds the unfinished last line a snapshot shows.
const maxUnfinished = 2000

// SniffSize is how much of the start of a stream, or of a file, decides
// whether it is binary.
const SniffSize = 8 << 10

const sniffSize = SniffSize

// Options configure a Pipeline.
type Options struct {
	Limits Limits
	// Spill opens the spill file; nil keeps no spill.
	Spill     SpillOpener
	SpillWhen SpillWhen
	// Shapes, when set, shows a stream whose cut lines are mostly of a
	// few shapes as a digest (see digest.go): its telling lines, and one
	// line for each shape that stands for the rest.
	Shapes bool
	// TailKeep, when above zero, keeps the last TailKeep bytes of a
	// stream whose spill file reached its cap, so that the end of the
	// stream can still be shown later (see Pipeline.Stream).
	TailKeep int
	// Binary is the rule that decides from the start of the stream
	// whether it is binary (the zero rule is IsBinary), or that judges
	// the stream by region (BinaryRegions).
	Binary BinaryRule
}

// A Pipeline is the streaming truncation engine for one stream:
// sanitize → count → spill → line cut → window → render.
//
// Write never fails: a spill that cannot be created or written is recorded
// and reported in the Result. A Pipeline is not safe for concurrent use.
type Pipeline struct {
	opt Options

	sniff   []byte
	decided bool
	binary  bool

	san *Sanitizer
	cut lineCutter
	win *window

	raw   int64 // bytes written to the Pipeline
	bytes int64 // sanitized bytes
	nl    int64 // sanitized '\n' bytes
	last  byte

	// The window since the last Cut.
	winBytes   int64 // sanitized bytes in the window
	winBase    int64 // lines before the window
	winStarted int64 // raw bytes before the window (binary streams)

	// Line sizes of the sanitized stream, for the notice of a line shown
	// partially ('\n' included when the line has one).
	lineLen      int64 // the unfinished last line
	prevLineLen  int64 // the last finished line
	firstLineLen int64 // the window's first line
	firstDone    bool  // the window's first line is finished

	prefix      []byte // sanitized stream, kept until it is spilled or fits
	spill       Spill
	spillTried  bool
	spillErr    error
	spillCapped bool
	spilled     int64     // bytes the spill accepted
	keep        *tailRing // the stream's end once the spill is capped

	// fails indexes the failure lines of the window, scanned when a
	// result first cuts some (see failscan.go); nil until then.
	fails *failureIndex
	// shapes is what a scan of the window found of its shapes (see
	// shapescan.go); nil until a result of it is made as a digest.
	shapes *shapeIndex

	closed bool

	tail recent // the end of the sanitized stream, for LastLine
}

// New returns a Pipeline. Zero Limits mean DefaultLimits, so that the
// zero Options are usable. New panics if other Limits are invalid, as it
// is a mistake in the calling code: check limits that come from outside
// (a config file, a request) with Limits.Validate first.
func New(opt Options) *Pipeline {
	if opt.Limits == (Limits{}) {
		opt.Limits = DefaultLimits
	}
	if err := opt.Limits.Validate(); err != nil {
		panic("output.New: " + err.Error())
	}
	p := &Pipeline{opt: opt, win: newWindow(opt.Limits)}
	p.cut = lineCutter{max: opt.Limits.MaxLineChars, emit: p.win.write, cutLine: p.win.markCut}
	p.san = newSanitizer(p.sink)
	if opt.Binary == BinaryRegions {
		// No look at the stream's start: its lines are judged as they come.
		p.decided = true
		p.san.regions = true
	}
	return p
}

// ErrClosed is returned by a Write after Close.
var ErrClosed = errors.New("output: write to a closed Pipeline")

// Write feeds b to the pipeline. It consumes all of b and never fails,
// except after Close (ErrClosed).
func (p *Pipeline) Write(b []byte) (int, error) {
	if p.closed {
		return 0, ErrClosed
	}
	n := len(b)
	p.raw += int64(n)
	if !p.decided {
		need := sniffSize - len(p.sniff)
		if len(b) < need {
			p.sniff = append(p.sniff, b...)
			return n, nil
		}
		p.sniff = append(p.sniff, b[:need]...)
		b = b[need:]
		p.decide()
	}
	if p.binary {
		p.spillWrite(b)
	} else {
		p.san.Write(b)
	}
	return n, nil
}

// ReadFrom feeds everything r yields to the pipeline. Its error is r's.
func (p *Pipeline) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, 64<<10)
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p.Write(buf[:n])
			total += int64(n)
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// decide looks at the first bytes of the stream and routes it as text or
// as binary.
func (p *Pipeline) decide() {
	p.decided = true
	p.binary = p.opt.Binary.binary(p.sniff)
	sniff := p.sniff
	p.sniff = nil
	if p.binary {
		p.openSpill()
		p.spillWrite(sniff)
		return
	}
	p.san.Write(sniff)
}

// IsBinary reports whether the start of a stream looks binary: it holds
// more than a few NUL bytes (at least 4, and 1% of it), or more than 30%
// of it is control bytes or invalid UTF-8. Escape sequences and the usual
// whitespace controls count as text, and so do up to fewControls other
// control bytes in valid UTF-8 that has at least as many other bytes: a
// stray NUL in a log, or a bell and two other controls in a line of text
// (printf 'a\001b\002c\007'), are dropped by the sanitizer, not a reason
// to call the stream binary; a binary format holds control bytes by the
// dozen, or invalid UTF-8 beside them. The rule is stated in
// docs/notices.md.
func IsBinary(b []byte) bool {
	if nul := bytes.Count(b, []byte{0}); nul >= 4 && nul*100 >= len(b) {
		return true
	}
	controls, invalid := 0, 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\b' && c != 0x1b && c != 0x07 {
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
	if controls <= fewControls && invalid == 0 && len(b)-controls >= controls {
		controls = 0 // a few, in valid text that outweighs them
	}
	return (controls+invalid)*10 > len(b)*3
}

// fewControls is how many control bytes (other than the whitespace ones,
// ESC and BEL) the start of a stream may hold and still be text whatever
// its length.
const fewControls = 8

// sink receives the sanitized stream.
func (p *Pipeline) sink(b []byte) {
	if len(b) == 0 {
		return
	}
	p.bytes += int64(len(b))
	p.winBytes += int64(len(b))
	p.nl += int64(countNewlines(b))
	p.last = b[len(b)-1]
	p.tail.add(b)
	p.trackLines(b)
	p.cut.write(b)
	switch {
	case p.opt.Spill == nil:
	case p.spillTried:
		p.spillWrite(b)
	case p.overflows():
		p.startSpill()
		p.spillWrite(b)
	default:
		p.prefix = append(p.prefix, b...)
	}
}

// trackLines follows the sizes of the lines that a partial view may name.
func (p *Pipeline) trackLines(b []byte) {
	k := lastIndexByte(b, '\n')
	if k < 0 {
		p.lineLen += int64(len(b))
		if !p.firstDone {
			p.firstLineLen = p.lineLen
		}
		return
	}
	if !p.firstDone {
		p.firstDone = true
		p.firstLineLen = p.lineLen + int64(bytes.IndexByte(b, '\n')) + 1
	}
	if j := lastIndexByte(b[:k], '\n'); j >= 0 {
		p.prevLineLen = int64(k - j)
	} else {
		p.prevLineLen = p.lineLen + int64(k) + 1
	}
	p.lineLen = int64(len(b) - k - 1)
}

// overflows reports whether the stream so far no longer fits, as the
// spill policy counts it.
func (p *Pipeline) overflows() bool {
	lim := p.opt.Limits
	if p.bytes > int64(lim.MaxBytes) {
		return true
	}
	if p.opt.SpillWhen == SpillPastBytes {
		return false
	}
	return p.lines() > int64(lim.MaxLines) || p.cut.linesCut > 0 || p.cut.cutting
}

func (p *Pipeline) lines() int64 {
	if p.bytes > 0 && p.last != '\n' {
		return p.nl + 1
	}
	return p.nl
}

func (p *Pipeline) openSpill() {
	if p.spillTried || p.opt.Spill == nil {
		return
	}
	p.spillTried = true
	s, err := p.opt.Spill()
	if err != nil {
		p.spillErr = err
		return
	}
	p.spill = s
}

// startSpill opens the spill and writes to it the prefix held until now.
func (p *Pipeline) startSpill() {
	p.openSpill()
	p.spillWrite(p.prefix)
	p.prefix = nil
}

func (p *Pipeline) spillWrite(b []byte) {
	if p.keep != nil {
		p.keep.write(b)
	}
	if p.spill == nil || p.spillErr != nil || p.spillCapped || len(b) == 0 {
		return
	}
	n, err := p.spill.Write(b)
	p.spilled += int64(n)
	if err != nil {
		if errors.Is(err, ErrSpillCapped) {
			p.spillCapped = true
			p.startKeep(b[n:])
		} else {
			p.spillErr = err
		}
	}
}

// Close ends the stream: it flushes what the sanitizer holds, spills what
// no longer fits and closes the spill. Result may be called afterwards.
func (p *Pipeline) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	if !p.decided {
		p.decide()
	}
	if !p.binary {
		p.san.Close()
		p.cut.close()
		if p.opt.Spill != nil && !p.spillTried && p.overflows() {
			p.startSpill()
		}
	}
	if p.spillTried {
		p.prefix = nil
	}
	if p.spill != nil {
		if err := p.spill.Close(); err != nil && p.spillErr == nil {
			p.spillErr = err
		}
	}
	return nil
}

// Progress reports the raw bytes and the sanitized lines seen so far, the
// lines the sanitizer holds back included (a redraw may yet make them
// fewer). Before the first 8 KiB decide whether the stream is text, the
// lines are counted in the raw bytes held for that decision.
func (p *Pipeline) Progress() (bytes, lines int64) {
	if !p.decided {
		return p.raw, int64(countNewlines(p.sniff))
	}
	held := p.san.held()
	if p.binary || len(held) == 0 {
		return p.raw, p.lines()
	}
	lines = p.nl + int64(countNewlines(held))
	if held[len(held)-1] != '\n' {
		lines++
	}
	return p.raw, lines
}

func countNewlines(b []byte) int { return bytes.Count(b, newline) }

// Result renders what the pipeline shows of the whole window since the last
// Cut (the whole stream if Cut was never called). Call it after Close for
// the final result, or at any time for a snapshot.
func (p *Pipeline) Result() Result { return p.ResultWithin(p.opt.Limits.MaxBytes) }

// ResultWithin is Result with at most maxBytes bytes of content shown (and
// of an unfinished last line), held between 1 and the limits' MaxBytes.
// It is how one budget is shared by the streams of a result at render
// time: the notice then names the smaller limit, and the spill file holds
// what it leaves out.
func (p *Pipeline) ResultWithin(maxBytes int) Result {
	maxBytes = max(1, min(maxBytes, p.opt.Limits.MaxBytes))
	if !p.decided {
		// A snapshot before the first 8 KiB decides on what has arrived.
		p.decide()
	}
	if !p.binary && !p.closed {
		// What the sanitizer holds back for redraws is shown now: it goes
		// into the window, and a redraw after this look adds lines.
		p.san.commit()
	}
	r := Result{Binary: p.binary, BinaryBytes: p.san.binaryBytes(), SpillCapped: p.spillCapped, limits: p.opt.Limits}
	r.limits.MaxBytes = maxBytes
	if p.spillCapped {
		r.SpillCap = p.spilled
	}
	if p.spill != nil {
		r.FullOutputPath = p.spill.Path()
	}
	if p.spillErr != nil {
		r.SpillError = p.spillErr.Error()
	}
	if p.binary {
		r.Truncation = Truncation{TotalBytes: p.raw - p.winStarted}
		if r.Truncation.TotalBytes > 0 {
			r.Truncation.Truncated, r.Truncation.TruncatedBy = true, ByBytes
		}
		return r
	}
	v := p.win.viewWithin(maxBytes)
	var fl failureList
	var dg *digest
	if p.opt.Shapes && p.opt.Limits.Strategy == HeadTail && !v.firstPartial && !v.lastPartial && v.headLines+v.tailLines < v.totalLines {
		var ok bool
		if v, dg, fl, ok = p.digestCut(v, maxBytes); !ok {
			dg = nil
		}
	}
	if dg == nil {
		v, fl = p.failuresCut(v, maxBytes)
	}
	// A view cut by the token limit, or by bytes within a share smaller
	// than MaxBytes, leaves out what the stream's own limits let through.
	if v.truncatedBy == ByTokens || v.truncatedBy == ByBytes && maxBytes < p.opt.Limits.MaxBytes {
		p.spillShortfall()
		if p.spill != nil {
			r.FullOutputPath = p.spill.Path()
		}
		if p.spillErr != nil {
			r.SpillError = p.spillErr.Error()
		}
	}
	r.Head, r.Tail = string(v.head), string(v.tail)
	r.OmittedLines, r.OmittedBytes = v.omittedLines, v.omittedBytes
	r.FirstLine = p.winBase + 1
	r.LastLine = p.winBase + v.totalLines
	switch {
	case v.firstPartial:
		r.LineBytes = p.firstLineLen
	case v.lastPartial:
		r.LineBytes = p.lineLen
		if r.LineBytes == 0 {
			r.LineBytes = p.prevLineLen
		}
	}
	t := &r.Truncation
	t.TotalLines = v.totalLines
	t.TotalBytes = p.winBytes
	t.OutputLines = v.headLines + v.tailLines
	t.OutputBytes = int64(len(v.head) + len(v.tail))
	if dg != nil {
		r.digest = dg
		t.OutputLines += dg.lines
		t.OutputBytes += dg.bytes
	}
	t.LinesCut = v.linesCut
	if v.firstCut > 0 {
		r.FirstCut, r.LastCut = p.winBase+v.firstCut, p.winBase+v.lastCut
	}
	t.FirstLinePartial, t.LastLinePartial = v.firstPartial, v.lastPartial
	r.HeadLines, r.TailLines = v.headLines, v.tailLines
	r.fails = fl
	r.Failures, r.FailuresCut = fl.shown, fl.count
	r.FailureLines = fl.count + countFailureLines(r.Head) + countFailureLines(r.Tail)
	if !p.closed {
		r.Unfinished = string(utf8Suffix(p.san.held(), min(maxUnfinished, maxBytes)))
	}
	switch {
	case v.truncatedBy != "":
		t.Truncated, t.TruncatedBy = true, v.truncatedBy
	case t.LinesCut > 0:
		t.Truncated, t.TruncatedBy = true, ByLineChars
	}
	return r
}

// spillShortfall spills a stream that fit its limits as it was written
// but not the view a result takes of it. Unless it was spilled already,
// the prefix still holds the whole stream; after Close the file is closed
// at once.
func (p *Pipeline) spillShortfall() {
	if p.spillTried || p.opt.Spill == nil || p.binary {
		return
	}
	p.startSpill()
	if p.closed && p.spill != nil {
		if err := p.spill.Close(); err != nil && p.spillErr == nil {
			p.spillErr = err
		}
	}
}

// Cut returns the Result of the window since the previous Cut and starts a
// new window: the next Result shows only output written after this call.
// Counting and spilling go on across windows.
func (p *Pipeline) Cut() Result { return p.CutWithin(p.opt.Limits.MaxBytes) }

// CutWithin is Cut whose Result shows at most maxBytes bytes (see
// ResultWithin). What it leaves out of the window is still counted and
// spilled: the next window starts after it all the same.
func (p *Pipeline) CutWithin(maxBytes int) Result {
	r := p.ResultWithin(maxBytes)
	p.winBase += r.Truncation.TotalLines
	if p.last != '\n' && r.Truncation.TotalLines > 0 && !p.binary {
		p.winBase-- // the unfinished line goes on in the next window
	}
	p.winBytes = 0
	p.winStarted = p.raw
	p.firstLineLen, p.firstDone = p.lineLen, false
	p.prevLineLen = 0
	p.win.reset()
	p.fails = nil
	p.shapes = nil
	return r
}

// failuresCut finds the failure lines among those v leaves out. When
// there are some, it returns the view of the stream within the bytes they
// leave (FailureShare of maxBytes goes to them) and what to show of them.
func (p *Pipeline) failuresCut(v view, maxBytes int) (view, failureList) {
	if v.firstPartial || v.lastPartial || v.headLines+v.tailLines >= v.totalLines {
		return v, failureList{}
	}
	src, end, done := p.source()
	if src == nil {
		return v, failureList{}
	}
	defer done()
	if p.fails == nil {
		p.fails = newFailureIndex(p.opt.Limits.MaxLines+256, p.bytes-p.winBytes)
	}
	p.fails.scan(src, end, p.closed)
	if _, count := p.fails.within(v.headLines+1, v.totalLines-v.tailLines); count == 0 {
		return v, failureList{}
	}
	share := int(float64(maxBytes) * FailureShare)
	v = p.win.viewWithin(max(1, maxBytes-share))
	a, b := v.headLines+1, v.totalLines-v.tailLines
	kept, count := p.fails.within(a, b)
	l := listFailures(src, end, kept, count, p.winBase, a, b, share, p.opt.Limits.MaxLineChars)
	if v.tailLines > 0 {
		l.resume = p.winBase + b + 1
	}
	return v, l
}

// source returns what holds the stream from its start, up to end, for
// reading lines back; nil when nothing does (no spill, or it failed).
func (p *Pipeline) source() (r io.ReaderAt, end int64, done func()) {
	switch {
	case p.binary:
	case p.spill != nil:
		f, err := os.Open(p.spill.Path())
		if err == nil {
			return f, p.spilled, func() { f.Close() }
		}
	case !p.spillTried && p.opt.Spill != nil:
		return bytes.NewReader(p.prefix), int64(len(p.prefix)), func() {}
	}
	return nil, 0, nil
}
