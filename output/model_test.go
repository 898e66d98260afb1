package output

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// This file holds a reference model of the pipeline after the sanitizer:
// the per-line cut, the three strategies and the truncation object, written
// the simple way (split the whole stream into lines, count) so that the
// streaming window can be checked against it. It also holds the checks of
// the invariants of docs/architecture.md that the fuzz tests and the scenario tests share.

// sanitizeAll runs the Sanitizer over in in one write.
func sanitizeAll(in []byte) []byte {
	var out []byte
	s := newSanitizer(func(b []byte) { out = append(out, b...) })
	s.Write(in)
	s.Close()
	return out
}

// splitLines splits s after each '\n'; the last line may lack one.
func splitLines(s []byte) [][]byte {
	var lines [][]byte
	for len(s) > 0 {
		k := bytes.IndexByte(s, '\n')
		if k < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:k+1])
		s = s[k+1:]
	}
	return lines
}

// refCutLines applies max_line_chars to each line the simple way; cut
// says which lines it shortened.
func refCutLines(lines [][]byte, max int) (out [][]byte, cut []bool) {
	for _, l := range lines {
		body, nl := l, []byte(nil)
		if bytes.HasSuffix(l, newline) {
			body, nl = l[:len(l)-1], newline
		}
		n := utf8.RuneCount(body)
		if max <= 0 || n <= max {
			out = append(out, l)
			cut = append(cut, false)
			continue
		}
		i := 0
		for range max {
			_, size := utf8.DecodeRune(body[i:])
			i += size
		}
		c := append([]byte(nil), body[:i]...)
		c = append(c, "... ["+strconv.Itoa(n-max)+" chars cut]"...)
		c = append(c, nl...)
		out = append(out, c)
		cut = append(cut, true)
	}
	return out, cut
}

// refCountCut counts the true values of cut[from:to].
func refCountCut(cut []bool, from, to int) (n int64) {
	for _, c := range cut[from:to] {
		if c {
			n++
		}
	}
	return n
}

// modelView is what the reference model shows of a stream.
type modelView struct {
	head, tail           []byte
	headLines, tailLines int64
	truncatedBy          string
	firstPartial         bool
	lastPartial          bool
	linesCut             int64
	totalLines           int64
}

// refView computes what lim shows of the sanitized stream s.
func refView(s []byte, lim Limits) modelView {
	lines, cut := refCutLines(splitLines(s), lim.MaxLineChars)
	v := modelView{totalLines: int64(len(lines))}
	total := 0
	for _, l := range lines {
		total += len(l)
	}
	if len(lines) <= lim.MaxLines && total <= lim.MaxBytes {
		v.head = bytes.Join(lines, nil)
		v.headLines = int64(len(lines))
		if v.linesCut = refCountCut(cut, 0, len(lines)); v.linesCut > 0 {
			v.truncatedBy = ByLineChars
		}
		return v
	}
	takeHead := func(maxLines, maxBytes int) (int, int) {
		n, b := 0, 0
		for n < len(lines) && n < maxLines && b+len(lines[n]) <= maxBytes {
			b += len(lines[n])
			n++
		}
		return n, b
	}
	takeTail := func(maxLines, maxBytes int) (int, int) {
		n, b := 0, 0
		for n < len(lines) && n < maxLines && b+len(lines[len(lines)-1-n]) <= maxBytes {
			b += len(lines[len(lines)-1-n])
			n++
		}
		return n, b
	}
	shown := lim.shownLines()
	var h, t, hb int
	switch lim.Strategy {
	case Head:
		h, _ = takeHead(shown, lim.MaxBytes)
		if h == 0 {
			v.head = refPrefix(lines[0], lim.MaxBytes)
			v.headLines, v.firstPartial = 1, true
		}
	case Tail:
		t, _ = takeTail(shown, lim.MaxBytes)
		if t == 0 {
			v.tail = refSuffix(lines[len(lines)-1], lim.MaxBytes)
			v.tailLines, v.lastPartial = 1, true
		}
	case HeadTail:
		hl := int(math.Floor(lim.HeadShare * float64(shown)))
		hcap := int(math.Floor(lim.HeadShare * float64(lim.MaxBytes)))
		h, hb = takeHead(hl, hcap)
		t, _ = takeTail(shown-h, lim.MaxBytes-hb)
		if h == 0 && t == 0 {
			v.tail = refSuffix(lines[len(lines)-1], lim.MaxBytes)
			v.tailLines, v.lastPartial = 1, true
		}
	}
	if !v.firstPartial && !v.lastPartial {
		v.head = bytes.Join(lines[:h], nil)
		v.tail = bytes.Join(lines[len(lines)-t:], nil)
		v.headLines, v.tailLines = int64(h), int64(t)
		// Only the shown lines that were cut count: a cut line in the
		// omitted middle is not shown at all.
		v.linesCut = refCountCut(cut, 0, h) + refCountCut(cut, len(lines)-t, len(lines))
	}
	v.truncatedBy = ByBytes
	if !v.firstPartial && !v.lastPartial && h+t == shown {
		v.truncatedBy = ByLines
	}
	return v
}

// refPrefix is the longest prefix of l of at most n bytes that ends on a
// character boundary.
func refPrefix(l []byte, n int) []byte {
	for n = min(n, len(l)); n > 0 && !utf8.Valid(l[:n]); n-- {
	}
	return l[:n]
}

// refSuffix is the longest suffix of l of at most n bytes that starts on a
// character boundary.
func refSuffix(l []byte, n int) []byte {
	i := len(l) - min(n, len(l))
	for i < len(l) && !utf8.Valid(l[i:]) {
		i++
	}
	return l[i:]
}

// memSpill is an in-memory Spill; capAt > 0 caps it like a spill file.
type memSpill struct {
	buf    bytes.Buffer
	capAt  int
	closed bool
	opened int
}

func (m *memSpill) Write(p []byte) (int, error) {
	if m.closed {
		return 0, fmt.Errorf("memSpill: write after close")
	}
	if m.capAt > 0 && m.buf.Len()+len(p) > m.capAt {
		n := m.capAt - m.buf.Len()
		m.buf.Write(p[:n])
		return n, ErrSpillCapped
	}
	return m.buf.Write(p)
}
func (m *memSpill) Path() string { return "/spill/test.log" }
func (m *memSpill) Close() error { m.closed = true; return nil }

func (m *memSpill) opener() SpillOpener {
	return func() (Spill, error) { m.opened++; return m, nil }
}

// chunked feeds in to p in pieces whose sizes cycle through sizes (each
// taken modulo 97, plus one).
func chunked(p *Pipeline, in []byte, sizes []byte) {
	if len(sizes) == 0 {
		p.Write(in)
		return
	}
	for i := 0; len(in) > 0; i++ {
		n := min(len(in), int(sizes[i%len(sizes)])%97+1)
		p.Write(in[:n])
		in = in[n:]
	}
}

// checkPipeline asserts the invariants of docs/architecture.md on r, the Result of a
// Pipeline fed in (text, not binary) under lim, and compares it with the
// reference model. spilled holds what the spill received (nil: no spill
// was opened).
func checkPipeline(t *testing.T, in []byte, lim Limits, when SpillWhen, r Result, spilled []byte) {
	t.Helper()
	checkPipelineOf(t, in, sanitizeAll(in), lim, when, r, spilled)
}

// checkPipelineOf is checkPipeline against s, the sanitized stream of in.
func checkPipelineOf(t *testing.T, in, s []byte, lim Limits, when SpillWhen, r Result, spilled []byte) {
	t.Helper()
	tr := r.Truncation
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("limits %+v, input %q:\n"+format, append([]any{lim, trimForLog(in)}, args...)...)
	}
	if r.Binary {
		fail("judged binary")
	}
	// Never a broken character.
	for name, part := range map[string]string{"Head": r.Head, "Tail": r.Tail, "Text()": r.Text(), "Notice": r.Notice("stdout")} {
		if !utf8.ValidString(part) {
			fail("%s is not valid UTF-8: %q", name, part)
		}
	}
	// Counters.
	if tr.TotalBytes != int64(len(s)) {
		fail("total_bytes %d, sanitized stream has %d", tr.TotalBytes, len(s))
	}
	if want := int64(len(splitLines(s))); tr.TotalLines != want {
		fail("total_lines %d, want %d", tr.TotalLines, want)
	}
	if tr.OutputBytes != int64(len(r.Head)+len(r.Tail)) {
		fail("output_bytes %d, but Head+Tail hold %d", tr.OutputBytes, len(r.Head)+len(r.Tail))
	}
	if tr.OutputLines != r.HeadLines+r.TailLines {
		fail("output_lines %d != head %d + tail %d", tr.OutputLines, r.HeadLines, r.TailLines)
	}
	headCount, tailCount := int64(len(splitLines([]byte(r.Head)))), int64(len(splitLines([]byte(r.Tail))))
	if tr.FirstLinePartial {
		headCount = 1 // the partial line counts even when not one whole character fits
	}
	if tr.LastLinePartial {
		tailCount = 1
	}
	if headCount != r.HeadLines || tailCount != r.TailLines {
		fail("HeadLines %d / TailLines %d do not count %q / %q", r.HeadLines, r.TailLines, r.Head, r.Tail)
	}
	// Both limits.
	if tr.OutputBytes > int64(lim.MaxBytes) {
		fail("output_bytes %d > max_bytes %d", tr.OutputBytes, lim.MaxBytes)
	}
	if tr.OutputLines > int64(lim.MaxLines) {
		fail("output_lines %d > max_lines %d", tr.OutputLines, lim.MaxLines)
	}
	// head + omitted + tail = total.
	if r.HeadLines+r.OmittedLines+r.TailLines != tr.TotalLines && !tr.FirstLinePartial && !tr.LastLinePartial {
		fail("head %d + omitted %d + tail %d != total %d", r.HeadLines, r.OmittedLines, r.TailLines, tr.TotalLines)
	}
	if (tr.FirstLinePartial || tr.LastLinePartial) && r.OmittedLines != tr.TotalLines-1 {
		fail("partial line: omitted %d, want %d", r.OmittedLines, tr.TotalLines-1)
	}
	// Always signalled.
	shown := r.Head + r.Tail
	if !tr.Truncated {
		if shown != string(s) {
			fail("not truncated, but shows %q of %q", shown, s)
		}
		if r.Notice("stdout") != "" {
			fail("not truncated, yet notice %q", r.Notice("stdout"))
		}
	} else {
		if r.Notice("stdout") == "" {
			fail("truncated without a notice")
		}
		if tr.TruncatedBy == "" {
			fail("truncated, truncated_by empty")
		}
	}
	// The reference model.
	v := refView(s, lim)
	if r.Head != string(v.head) || r.Tail != string(v.tail) {
		fail("head/tail\n got  %q | %q\n want %q | %q", r.Head, r.Tail, v.head, v.tail)
	}
	if r.HeadLines != v.headLines || r.TailLines != v.tailLines {
		fail("lines %d+%d, want %d+%d", r.HeadLines, r.TailLines, v.headLines, v.tailLines)
	}
	if tr.TruncatedBy != v.truncatedBy || tr.Truncated != (v.truncatedBy != "") {
		fail("truncated_by %q (truncated %v), want %q", tr.TruncatedBy, tr.Truncated, v.truncatedBy)
	}
	if tr.FirstLinePartial != v.firstPartial || tr.LastLinePartial != v.lastPartial {
		fail("partial flags %v/%v, want %v/%v", tr.FirstLinePartial, tr.LastLinePartial, v.firstPartial, v.lastPartial)
	}
	if tr.LinesCut != v.linesCut {
		fail("lines_cut %d, want %d", tr.LinesCut, v.linesCut)
	}
	// Whole lines: the head is a prefix of the line-cut stream ending on a
	// line boundary, the tail a suffix starting on one.
	cutLines, _ := refCutLines(splitLines(s), lim.MaxLineChars)
	cutStream := bytes.Join(cutLines, nil)
	if !tr.FirstLinePartial && !tr.LastLinePartial && tr.Truncated && tr.TruncatedBy != ByLineChars {
		if !bytes.HasPrefix(cutStream, []byte(r.Head)) || (r.Head != "" && !strings.HasSuffix(r.Head, "\n")) {
			fail("head %q is not whole lines from the start", r.Head)
		}
		at := len(cutStream) - len(r.Tail) // where the tail starts
		if r.Tail != "" && (!bytes.HasSuffix(cutStream, []byte(r.Tail)) || (at > 0 && cutStream[at-1] != '\n')) {
			fail("tail %q is not whole lines to the end", r.Tail)
		}
	}
	// Nothing lost.
	needSpill := tr.Truncated
	if when == SpillPastBytes {
		needSpill = len(s) > lim.MaxBytes
	}
	if needSpill && spilled == nil {
		fail("truncated (%s) but nothing spilled", tr.TruncatedBy)
	}
	if !needSpill && spilled != nil {
		fail("spilled although the output fits")
	}
	if spilled != nil && !bytes.Equal(spilled, s) {
		fail("spill holds %q, sanitized stream is %q", trimForLog(spilled), trimForLog(s))
	}
}

func trimForLog(b []byte) string {
	if len(b) > 300 {
		return fmt.Sprintf("%q… (%d bytes)", b[:300], len(b))
	}
	return fmt.Sprintf("%q", b)
}
