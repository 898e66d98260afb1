package shell

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"unicode/utf8"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// Showing a recorded call again. Nothing runs: the lines come from the
// stream kept in memory, or are read from the spill file (and the kept
// end of a capped stream) at the offsets they need — a tail reads the
// last bytes of a file, a line range counts newlines up to its first
// line — so the cost does not grow with the size of the output.

// A Shown is a recorded stream shown again: what was shown of it, as the
// result's details give it, and the text.
type Shown struct {
	tool.ShownStream
	// Empty: the stream carried nothing and was not asked for alone, so
	// nothing was shown of it.
	Empty bool
	// Body is the lines shown and a notice that says which of how many;
	// Err, when set, says instead why the stream can no longer be shown.
	Body string
	Err  error
}

// MaxHistoryPatternBytes bounds history's pattern, as grep's is bounded:
// a longer one is refused before it is compiled.
const MaxHistoryPatternBytes = 64 << 10

// Render shows the output of a recorded call again, as sel asks (its ID,
// Stream, Strategy, limits, Offset and Pattern; a listing's filters are
// not its business), without running anything: the call's record, how its
// shell ended, and what was shown of each stream (nil for a stream not
// asked for, or merged into stdout). The error says why it cannot (bad
// input, an unknown or running call); a stream that can no longer be shown
// has its Err.
func (r *Runner) Render(sel tool.HistoryInput) (rec tool.HistoryRecord, exit Exit, stdout, stderr *Shown, err error) {
	stored, err := r.history.record(sel.ID)
	if err != nil {
		return tool.HistoryRecord{}, Exit{}, nil, nil, err
	}
	r.history.mu.Lock()
	snap := *stored
	r.history.mu.Unlock()
	if snap.Running {
		return tool.HistoryRecord{}, Exit{}, nil, nil, fmt.Errorf("call %d is still running: use check_pid for its new output, or wait until it ends", sel.ID)
	}
	var re *regexp.Regexp
	if len(sel.Pattern) > MaxHistoryPatternBytes {
		return tool.HistoryRecord{}, Exit{}, nil, nil, fmt.Errorf("pattern is %s, over the %s limit on a history pattern (MaxHistoryPatternBytes): match a distinctive part of the lines",
			output.FormatSize(int64(len(sel.Pattern))), output.FormatSize(MaxHistoryPatternBytes))
	}
	if sel.Pattern != "" {
		if re, err = regexp.Compile(sel.Pattern); err != nil {
			return tool.HistoryRecord{}, Exit{}, nil, nil, fmt.Errorf("pattern: %v", err)
		}
	}
	d := snap.data
	section := func(label string, s *streamData, lim output.Limits) *Shown {
		if s == nil || (sel.Stream != "" && sel.Stream != label) {
			return nil
		}
		if sel.Stream == "" && s.Bytes == 0 {
			return &Shown{Empty: true}
		}
		return renderStream(s, sel, lim, re)
	}
	pol := forCall(r.cfg.Bash, sel.MaxLines, sel.MaxBytes, false, sel.MaxTokens)
	return snap.HistoryRecord, *snap.status.view(), section("stdout", &d.stdout, pol.Stdout), section("stderr", d.stderr, pol.Stderr), nil
}

// renderStream shows one stream as in asks: its body (content and a
// bracketed notice), or why it cannot be shown, and what it showed.
func renderStream(s *streamData, in tool.HistoryInput, lim output.Limits, re *regexp.Regexp) *Shown {
	shown := &Shown{ShownStream: tool.ShownStream{TotalLines: s.Lines, TotalBytes: s.Bytes}}
	if s.Binary {
		shown.Err = fmt.Errorf("binary output (%d bytes), shown as such only. Full output: %s", s.Bytes, s.SpillPath)
		return shown
	}
	src, err := openSource(s)
	if err != nil {
		shown.Err = err
		return shown
	}
	defer src.close()
	v := &replay{s: s, in: in, lim: lim, re: re, src: src, shown: shown, strategy: lim.Strategy,
		share: int(float64(lim.MaxBytes) * output.FailureShare)}
	if in.Strategy != "" {
		v.strategy = output.Strategy(in.Strategy)
	}
	parts, byTokens, err := v.pickWithinTokens()
	if err != nil {
		shown.Err = err
		return shown
	}
	before, between, after := v.failures(parts)
	if before+between+after != "" && !byTokens {
		if ps, err := v.pick(int64(lim.MaxBytes - v.share)); err == nil {
			parts = ps
			before, between, after = v.failures(ps)
		}
	}
	var b strings.Builder
	b.WriteString(before)
	v.writeParts(&b, parts, between)
	b.WriteString(after)
	shown.Missing = src.missing()
	tokensLimit := 0
	if byTokens {
		shown.Truncated, tokensLimit = true, lim.MaxTokens
	}
	b.WriteString(notice(s, shown, src, tokensLimit))
	shown.Body = b.String()
	return shown
}

// A replay is one recorded stream being shown again, as a history call
// asks.
type replay struct {
	s        *streamData
	in       tool.HistoryInput
	lim      output.Limits
	re       *regexp.Regexp // the pattern, nil for none
	src      *source
	shown    *Shown
	strategy output.Strategy
	// share is the bytes the cut lines that look like failures take, as
	// in a result.
	share int
}

// pick reads the parts the call selects within maxBytes (the lines of a
// pattern, a range, a head, a tail or both) and names the mode.
func (v *replay) pick(maxBytes int64) ([]part, error) {
	maxLines := int64(v.lim.MaxLines)
	switch {
	case v.re != nil:
		v.shown.Mode = "pattern"
		return v.src.grep(v.re, int64(max(v.in.Offset, 1)), maxLines, maxBytes)
	case v.in.Offset > 0:
		v.shown.Mode = "range"
		return v.src.lines(int64(v.in.Offset), maxLines, maxBytes)
	case v.strategy == output.Head:
		v.shown.Mode = "head"
		return v.src.lines(1, maxLines, maxBytes)
	case v.strategy == output.Tail:
		v.shown.Mode = "tail"
		return v.src.last(maxLines, maxBytes)
	}
	v.shown.Mode = "head_tail"
	return v.src.headTail(maxLines, maxBytes, v.lim.HeadShare)
}

// pickWithinTokens picks the parts within the byte limit, or, when they
// pass the token limit, within the largest byte limit whose parts fit it,
// as the pipeline finds it for a result (byTokens then says so).
func (v *replay) pickWithinTokens() (parts []part, byTokens bool, err error) {
	lim := v.lim
	parts, err = v.pick(int64(lim.MaxBytes))
	if err != nil || lim.MaxTokens <= 0 || partsTokens(parts, lim.MaxLineChars) <= lim.MaxTokens {
		return parts, false, err
	}
	lo, hi := int64(0), int64(lim.MaxBytes)
	for hi-lo > 1 && err == nil {
		mid := lo + (hi-lo)/2
		var ps []part
		if ps, err = v.pick(mid); partsTokens(ps, lim.MaxLineChars) <= lim.MaxTokens {
			lo = mid
		} else {
			hi = mid
		}
	}
	if err == nil {
		parts, err = v.pick(max(1, lo))
	}
	return parts, true, err
}

// failures lists the cut lines that look like failures: between head and
// tail, before a tail, or after a head.
func (v *replay) failures(parts []part) (before, between, after string) {
	switch {
	case len(parts) == 2:
		h, t := parts[0], parts[1]
		between = v.failureSection(h.end, t.offset, h.last+1, t.first-1, output.OmissionMarker(t.first-h.last-1, t.offset-h.end), false)
	case len(parts) == 1 && v.shown.Mode == "tail":
		p := parts[0]
		before = v.failureSection(0, p.offset, 1, p.first-1, fmt.Sprintf("[... %s (%s) not shown ...]", output.Plural(p.first-1, "line", "lines"), output.FormatSize(p.offset)), false)
	case len(parts) == 1 && v.shown.Mode == "head" && v.src.whole:
		p := parts[0]
		after = v.failureSection(p.end, v.src.headLen, p.last+1, v.s.Lines, fmt.Sprintf("[... %s (%s) not shown ...]", output.Plural(v.s.Lines-p.last, "line", "lines"), output.FormatSize(v.src.headLen-p.end)), true)
	}
	return before, between, after
}

// failureSection lists the lines that look like failures among the cut
// lines first to last (bytes from to to), with marker; none for a pattern
// or a range, or where the stream is not held.
func (v *replay) failureSection(from, to, first, last int64, marker string, atEnd bool) string {
	if v.re != nil || v.in.Offset > 0 || first > last || to > v.src.headLen {
		return ""
	}
	text, _ := output.FailureSection(v.src.head, from, to, first, last, marker, v.share, v.lim.MaxLineChars, v.s.SpillPath, atEnd)
	return text
}

// writeParts writes the parts to b, each line cut to the line limit,
// between two of them the failures listed between (or else a marker of
// what is left out), and counts what they show.
func (v *replay) writeParts(b *strings.Builder, parts []part, between string) {
	for i, p := range parts {
		if i > 0 && v.re == nil {
			omitted := p.first - parts[i-1].last - 1
			if between != "" {
				b.WriteString(between)
			} else {
				fmt.Fprintf(b, "%s\n", output.OmissionMarker(omitted, p.offset-parts[i-1].end))
			}
		}
		content := cutLines(p.text, v.lim.MaxLineChars, v.re != nil)
		b.WriteString(content)
		if content != "" && !strings.HasSuffix(content, "\n") {
			b.WriteByte('\n')
		}
		v.shown.add(p)
	}
}

// add counts a part shown.
func (sh *Shown) add(p part) {
	if sh.FirstLine == 0 {
		sh.FirstLine = p.first
	}
	sh.LastLine = p.last
	sh.OutputLines += p.count
	sh.OutputBytes += int64(len(p.text))
	sh.Matches += p.matches
	sh.Truncated = sh.Truncated || p.cut
}

// partsTokens is the estimate of the content parts show.
func partsTokens(parts []part, maxLineChars int) int {
	n := 0
	for _, p := range parts {
		n += output.EstimateTokensString(cutLines(p.text, maxLineChars, false))
	}
	return n
}

// notice says which lines were shown of how many, and where the rest is;
// tokensLimit, when above zero, is the token limit that cut them.
func notice(s *streamData, sh *Shown, src *source, tokensLimit int) string {
	var b strings.Builder
	b.WriteString("[")
	switch {
	case sh.Mode == "pattern":
		fmt.Fprintf(&b, "%d matching lines shown", sh.Matches)
		if sh.Truncated {
			b.WriteString(" (limit reached; give offset to search on from a line)")
		}
	case sh.OutputLines == 0:
		fmt.Fprintf(&b, "no lines shown")
	default:
		fmt.Fprintf(&b, "%s: lines %d-%d", sh.Mode, sh.FirstLine, sh.LastLine)
	}
	fmt.Fprintf(&b, " of %d (%s)", s.Lines, output.FormatSize(s.Bytes))
	if tokensLimit > 0 {
		fmt.Fprintf(&b, ", cut at the %d tokens limit", tokensLimit)
	}
	if sh.Missing != "" {
		b.WriteString("; " + sh.Missing)
	}
	if s.SpillPath != "" {
		b.WriteString(". Full output: " + s.SpillPath)
		if s.SpillCapped {
			fmt.Fprintf(&b, " (capped at %s)", output.FormatSize(s.Spilled))
		}
		if s.tailPath != "" {
			b.WriteString(", its end: " + s.tailPath)
		}
	}
	b.WriteString("]\n")
	return b.String()
}

// cutLines shortens lines longer than maxChars (0: none) the way the
// pipeline does. Numbered lines (pattern mode) are cut the same way.
func cutLines(text string, maxChars int, _ bool) string {
	if maxChars <= 0 || len(text) <= maxChars {
		return text
	}
	p := output.New(output.Options{Limits: output.Limits{
		Strategy: output.Head, MaxLines: policy.LinesCeiling + 1, MaxBytes: len(text) + 1, MaxLineChars: maxChars,
	}})
	p.Write([]byte(text))
	p.Close()
	return p.Result().Text()
}

// A part is a run of whole lines of a stream.
type part struct {
	text        string
	first, last int64 // line numbers
	count       int64 // lines in text
	offset, end int64 // stream byte offsets of text
	matches     int64
	cut         bool // the selection went on past the limits
}

// A source reads a recorded stream: seg holds it from its start (all of
// it unless the spill was capped), tailSeg the kept end of a capped one.
type source struct {
	s       *streamData
	head    io.ReaderAt
	headLen int64 // bytes of the stream from its start that head holds
	whole   bool  // head holds the whole stream
	tail    io.ReaderAt
	tailLen int64
	files   []*os.File

	tailFirst      int64 // line number of the first whole line in tail
	tailSkip       int64 // bytes of tail before that line
	tailStartKnown bool
}

func openSource(s *streamData) (*source, error) {
	src := &source{s: s}
	switch {
	case s.inline:
		src.head, src.headLen, src.whole = bytes.NewReader(s.Whole), int64(len(s.Whole)), true
	case s.SpillPath != "":
		f, err := os.Open(s.SpillPath)
		if err != nil {
			return nil, fmt.Errorf("its spill file is gone (%v): the output can no longer be shown", err)
		}
		src.files = append(src.files, f)
		src.head, src.headLen, src.whole = f, s.Spilled, !s.SpillCapped && s.SpillError == ""
	case s.Bytes == 0:
		src.head, src.whole = bytes.NewReader(nil), true
	default:
		return nil, errors.New("its output was not kept (it was not spilled, and the history's memory for small outputs went to newer calls)")
	}
	if s.tailPath != "" {
		f, err := os.Open(s.tailPath)
		if err == nil {
			src.files = append(src.files, f)
			src.tail, src.tailLen = f, s.Bytes-s.TailOffset
		}
	}
	return src, nil
}

func (src *source) close() {
	for _, f := range src.files {
		f.Close()
	}
}

// missing says what part of the stream was never saved.
func (src *source) missing() string {
	if src.whole {
		return ""
	}
	if src.tail == nil {
		why := "the spill cap"
		if src.s.SpillError != "" {
			why = "saving failed: " + src.s.SpillError
		}
		return fmt.Sprintf("only the first %s was saved (%s): later lines are lost", output.FormatSize(src.headLen), why)
	}
	src.findTailStart()
	return fmt.Sprintf("saved: the first %s and lines %d-%d (the last %s); the lines between passed the spill cap and are lost",
		output.FormatSize(src.headLen), src.tailFirst, src.s.Lines, output.FormatSize(src.tailLen))
}

// findTailStart locates the first whole line of the kept end and its
// number, counted back from the stream's last line.
func (src *source) findTailStart() {
	if src.tailStartKnown || src.tail == nil {
		return
	}
	src.tailStartKnown = true
	buf := make([]byte, src.tailLen)
	n, _ := src.tail.ReadAt(buf, 0)
	buf = buf[:n]
	skip := 0
	if src.s.TailOffset > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			skip = len(buf)
		} else {
			skip = i + 1
		}
	}
	rest := buf[skip:]
	lines := int64(bytes.Count(rest, []byte{'\n'}))
	if len(rest) > 0 && rest[len(rest)-1] != '\n' {
		lines++
	}
	src.tailSkip = int64(skip)
	src.tailFirst = src.s.Lines - lines + 1
}

// lines returns up to maxLines whole lines from line first on, within
// maxBytes (a first line longer than that shows its beginning).
func (src *source) lines(first, maxLines, maxBytes int64) ([]part, error) {
	if first > src.s.Lines {
		return nil, fmt.Errorf("offset %d is past the end of the output (%d lines)", first, src.s.Lines)
	}
	if src.tail != nil {
		src.findTailStart()
		if first >= src.tailFirst {
			off, err := skipLines(src.tail, src.tailSkip, src.tailLen, first-src.tailFirst)
			if err != nil {
				return nil, err
			}
			p := takeLines(src.tail, off, src.tailLen, maxLines, maxBytes)
			return []part{src.number(p, first, src.s.TailOffset)}, nil
		}
	}
	off, err := skipLines(src.head, 0, src.headLen, first-1)
	if err != nil || (!src.whole && off >= src.headLen) {
		return nil, src.gap(first)
	}
	p := takeLines(src.head, off, src.headLen, maxLines, maxBytes)
	if !src.whole && p.end == src.headLen && !strings.HasSuffix(p.text, "\n") {
		// The last line in the capped file is only its beginning.
		if i := strings.LastIndexByte(p.text, '\n'); i >= 0 {
			p.text, p.count, p.end, p.cut = p.text[:i+1], p.count-1, p.offset+int64(i+1), true
		}
	}
	if p.count == 0 && !src.whole && p.offset+int64(len(p.text)) >= src.headLen {
		return nil, src.gap(first)
	}
	return []part{src.number(p, first, 0)}, nil
}

func (src *source) gap(line int64) error {
	return fmt.Errorf("line %d was not saved: %s", line, src.missing())
}

func (src *source) number(p part, first, base int64) part {
	p.first = first
	p.last = first + p.count - 1
	p.offset += base
	p.end += base
	return p
}

// last returns the last lines within maxLines and maxBytes.
func (src *source) last(maxLines, maxBytes int64) ([]part, error) {
	r, size, start, base := src.head, src.headLen, int64(0), int64(0)
	if src.tail != nil {
		src.findTailStart()
		r, size, start, base = src.tail, src.tailLen, src.tailSkip, src.s.TailOffset
	} else if !src.whole {
		return nil, errors.New(src.missing() + ": the end of this output was not kept")
	}
	p := takeLastLines(r, start, size, maxLines, maxBytes)
	p.offset += base
	p.end += base
	p.last = src.s.Lines
	p.first = p.last - p.count + 1
	if p.count == 0 {
		p.first, p.last = 0, 0
	}
	return []part{p}, nil
}

// headTail returns the first lines and the last ones, headShare of each
// limit to the head, or the whole stream when it fits.
func (src *source) headTail(maxLines, maxBytes int64, headShare float64) ([]part, error) {
	if src.whole && src.s.Lines <= maxLines && src.s.Bytes <= maxBytes {
		return src.lines(1, maxLines, maxBytes)
	}
	hl, hb := int64(float64(maxLines)*headShare), int64(float64(maxBytes)*headShare)
	head, err := src.lines(1, max(hl, 1), max(hb, 1))
	if err != nil {
		return nil, err
	}
	h := head[0]
	tail, err := src.last(max(maxLines-h.count, 1), max(maxBytes-int64(len(h.text)), 1))
	if err != nil {
		return head, nil
	}
	t := tail[0]
	if t.first <= h.last { // they meet: show the stream from the head on
		return src.lines(1, maxLines, maxBytes)
	}
	h.cut, t.cut = true, true
	return []part{h, t}, nil
}

// grep returns the lines from line `from` on that match re, numbered,
// up to maxLines matches and maxBytes of text.
func (src *source) grep(re *regexp.Regexp, from, maxLines, maxBytes int64) ([]part, error) {
	var b strings.Builder
	p := part{}
	scan := func(r io.ReaderAt, start, size, firstLine, upTo int64) bool {
		line := firstLine
		sr := io.NewSectionReader(r, start, size-start)
		br := newLineReader(sr)
		for {
			l, err := br.next()
			if len(l) > 0 {
				if line >= from && (upTo == 0 || line < upTo) && re.Match(bytes.TrimSuffix(l, []byte{'\n'})) {
					entry := fmt.Sprintf("%d: %s", line, bytes.TrimSuffix(l, []byte{'\n'}))
					if p.matches >= maxLines || int64(b.Len()+len(entry)+1) > maxBytes {
						p.cut = true
						return false
					}
					b.WriteString(entry + "\n")
					p.matches++
					p.count++
					if p.first == 0 {
						p.first = line
					}
					p.last = line
				}
				line++
			}
			if err != nil {
				return true
			}
		}
	}
	var upTo int64
	if src.tail != nil {
		src.findTailStart()
		upTo = src.tailFirst
	}
	if scan(src.head, 0, src.headLen, 1, upTo) && src.tail != nil {
		scan(src.tail, src.tailSkip, src.tailLen, src.tailFirst, 0)
	}
	p.text = b.String()
	return []part{p}, nil
}

// skipLines returns the offset in r (from start, up to size) after n
// newlines, counting them a chunk at a time.
func skipLines(r io.ReaderAt, start, size, n int64) (int64, error) {
	if n == 0 {
		return start, nil
	}
	buf := make([]byte, 1<<20)
	off := start
	for off < size {
		k, err := r.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		chunk := buf[:k]
		if c := int64(bytes.Count(chunk, []byte{'\n'})); c < n {
			n -= c
			off += int64(k)
		} else {
			for i := 0; ; {
				j := bytes.IndexByte(chunk[i:], '\n')
				i += j + 1
				n--
				if n == 0 {
					return off + int64(i), nil
				}
			}
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
		if k == 0 {
			break
		}
	}
	return off, io.EOF
}

// takeLines reads whole lines from off on, up to maxLines and maxBytes.
// When the first line alone is longer than maxBytes, its beginning is
// taken (on a UTF-8 boundary).
func takeLines(r io.ReaderAt, off, size, maxLines, maxBytes int64) part {
	p := part{offset: off}
	want := min(maxBytes+1, size-off)
	buf := make([]byte, max(want, 0))
	k, _ := r.ReadAt(buf, off)
	buf = buf[:k]
	more := off+int64(k) < size
	end := 0
	for p.count < maxLines && end < len(buf) {
		j := bytes.IndexByte(buf[end:], '\n')
		var next int
		if j < 0 {
			if more || int64(len(buf)) > maxBytes {
				break // the line goes on past what fits
			}
			next = len(buf)
		} else {
			next = end + j + 1
		}
		if int64(next) > maxBytes {
			break
		}
		end = next
		p.count++
	}
	if end == 0 && len(buf) > 0 && p.count == 0 && maxLines > 0 {
		end = utf8Cut(buf, int(min(maxBytes, int64(len(buf)))))
		p.count = 1
		p.cut = true
	}
	p.text = string(buf[:end])
	p.end = off + int64(end)
	p.cut = p.cut || p.end < size
	return p
}

// takeLastLines reads the last whole lines of r[start:size], up to
// maxLines and maxBytes; a last line longer than maxBytes shows its end.
func takeLastLines(r io.ReaderAt, start, size, maxLines, maxBytes int64) part {
	want := min(maxBytes+1, size-start)
	from := size - want
	buf := make([]byte, max(want, 0))
	k, _ := r.ReadAt(buf, from)
	buf = buf[:k]
	if len(buf) == 0 {
		return part{offset: size, end: size}
	}
	// Lines end at each '\n'; the stream's last line may have none.
	begin := len(buf)
	count := int64(0)
	i := len(buf)
	if i > 0 && buf[i-1] == '\n' {
		i--
	}
	for count < maxLines {
		j := bytes.LastIndexByte(buf[:i], '\n')
		if j < 0 {
			if from == start && int64(len(buf)) <= maxBytes { // the first line of the range, whole
				begin, count = 0, count+1
			}
			break
		}
		if int64(len(buf)-(j+1)) > maxBytes {
			break
		}
		begin, count = j+1, count+1
		i = j
	}
	p := part{count: count}
	if count == 0 && len(buf) > 0 {
		// One last line longer than the budget: its end.
		b := len(buf) - int(min(maxBytes, int64(len(buf))))
		for b < len(buf) && !utf8.RuneStart(buf[b]) {
			b++
		}
		begin, p.count = b, 1
	}
	p.text = string(buf[begin:])
	p.offset = from + int64(begin)
	p.end = size
	p.cut = p.offset > start
	return p
}

// utf8Cut returns n, moved back to the start of a UTF-8 sequence.
func utf8Cut(b []byte, n int) int {
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// A lineReader yields the lines of a reader, '\n' included; a line longer
// than its buffer comes in pieces (grep then sees each piece).
type lineReader struct {
	r   io.Reader
	buf []byte
	beg int
	end int
	err error
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: r, buf: make([]byte, 256<<10)} }

func (l *lineReader) next() ([]byte, error) {
	for {
		if i := bytes.IndexByte(l.buf[l.beg:l.end], '\n'); i >= 0 {
			line := l.buf[l.beg : l.beg+i+1]
			l.beg += i + 1
			return line, nil
		}
		if l.err != nil {
			line := l.buf[l.beg:l.end]
			l.beg = l.end
			return line, l.err
		}
		if l.beg == 0 && l.end == len(l.buf) {
			line := l.buf[:l.end]
			l.beg = l.end
			return line, nil
		}
		copy(l.buf, l.buf[l.beg:l.end])
		l.end -= l.beg
		l.beg = 0
		var n int
		n, l.err = l.r.Read(l.buf[l.end:])
		l.end += n
	}
}

// QuoteCommand shows a command and its arguments in one line, quoted
// and cut to 80 characters.
func QuoteCommand(command string, args []string) string {
	c := command
	if len(args) > 0 {
		c += " " + strings.Join(args, " ")
	}
	if len(c) > 80 {
		c = c[:utf8Cut([]byte(c), 77)] + "..."
	}
	return fmt.Sprintf("%q", c)
}
