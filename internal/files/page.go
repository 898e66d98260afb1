package files

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// A Stop says why a page ended before the end of the file.
type Stop uint8

const (
	StopNone   Stop = iota // the file ended
	StopLines              // MaxLines lines shown
	StopBytes              // the next line did not fit MaxBytes
	StopTokens             // the next line did not fit MaxTokens
)

var replacementChar = []byte(string(utf8.RuneError))

// A page collects the lines a read shows, fed the file's bytes from the
// start of the first line asked for. It holds at most the shown text and
// the kept part of the current line, so its memory is O(limits) whatever
// the size of the file or of its lines.
//
// Every shown line is kept as in the file, its ending ("\n" or "\r\n")
// included, except that invalid UTF-8 becomes U+FFFD (one per byte) and a
// line longer than MaxLineChars keeps its first MaxLineChars characters
// followed by "... [N chars cut]".
type page struct {
	lim   tool.ReadPolicy // MaxLines the call's, LineNumbers the call's or the policy's
	first int64           // number (1-based) of the first line fed

	text    []byte // shown lines as the model reads them: numbers and cut markers included
	content []byte // shown lines, pure: no numbers, cut lines cut without a marker
	shown   int64
	done    bool
	stop    Stop
	tokens  output.TokenCounter // the estimate of text

	linesCut      int64
	firstCut      int64 // number of the first cut line (0: none)
	firstCutBytes int64 // its size in bytes

	// The first line did not fit MaxBytes even cut: its number and size.
	overLine  int64
	overBytes int64

	// The current line.
	started    bool  // a byte of it was fed
	raw        int64 // its bytes so far, '\n' excluded
	lastCR     bool  // its last byte so far is '\r'
	cur        []byte
	curChars   int              // characters decoded into cur
	cutAt      int              // len(cur) at MaxLineChars characters
	full       bool             // cur is complete: the rest is only counted
	extraChars int64            // characters after cur
	measuring  bool             // the line does not fit: only its size is wanted
	carry      output.RuneCarry // start of a rune split across writes
	marker     []byte
	san        *output.Sanitizer // the current line's, made on first use
}

func newPage(lim tool.ReadPolicy, first int64) *page {
	return &page{lim: lim, first: first}
}

// number is the 1-based number of the current line.
func (p *page) number() int64 { return p.first + p.shown }

// write feeds the next bytes of the file. It reports true once the page
// is complete: more bytes would change nothing.
func (p *page) write(b []byte) bool {
	for len(b) > 0 && !p.done {
		k := bytes.IndexByte(b, '\n')
		if k < 0 {
			p.segment(b)
			return p.done
		}
		p.segment(b[:k])
		p.endLine(true)
		b = b[k+1:]
	}
	return p.done
}

// close ends the file: a last line without '\n' is taken as it is.
func (p *page) close() {
	if !p.done && p.started {
		p.endLine(false)
	}
}

// segment takes bytes of the current line ('\n' excluded): they are
// sanitized as bash output is (escape sequences and control bytes
// dropped, a lone '\r' overwriting the line so far), line by line.
func (p *page) segment(b []byte) {
	if len(b) == 0 {
		return
	}
	p.started = true
	p.raw += int64(len(b))
	p.lastCR = b[len(b)-1] == '\r'
	if p.measuring || p.done {
		return
	}
	if p.san == nil {
		p.san = output.NewLineSanitizer(p.clean)
	}
	p.san.Write(b)
}

// clean takes sanitized bytes of the current line.
func (p *page) clean(b []byte) {
	if p.measuring || p.done {
		return
	}
	if p.carry.Len() > 0 {
		b = p.carry.Resolve(b, false, p.char)
	}
	for len(b) > 0 && !p.measuring && !p.done {
		if p.full {
			p.count(b)
			return
		}
		if b[0] < utf8.RuneSelf {
			n := p.asciiRun(b)
			p.keep(b[:n], n)
			b = b[n:]
			continue
		}
		if !utf8.FullRune(b) {
			p.carry.Hold(b)
			return
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			p.keep(replacementChar, 1)
		} else {
			p.keep(b[:size], 1)
		}
		b = b[size:]
	}
}

// char takes one decoded character: kept or counted.
func (p *page) char(c []byte) {
	if p.measuring {
		return
	}
	if p.full {
		p.extraChars++
		p.checkCutFits()
		return
	}
	p.keep(c, 1)
}

// count counts the characters of b past the kept part of the line. An
// unfinished character at its end is held for the next segment.
func (p *page) count(b []byte) {
	end := len(b)
	for k := 1; k <= utf8.UTFMax-1 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			break
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-k:]) {
				end = len(b) - k
			}
			break
		}
	}
	p.extraChars += int64(utf8.RuneCount(b[:end]))
	p.carry.Hold(b[end:])
	p.checkCutFits()
}

// asciiRun returns the length of the run of ASCII at the start of b
// (b[0] is ASCII), no longer than the kept part of the line can take.
func (p *page) asciiRun(b []byte) int {
	n := len(b)
	if mc := p.lim.MaxLineChars; mc > 0 {
		n = min(n, mc+1-p.curChars)
	} else {
		n = min(n, max(1, p.room()+1-len(p.cur)))
	}
	for i := 1; i < n; i++ {
		if b[i] >= utf8.RuneSelf {
			return i
		}
	}
	return max(n, 1)
}

// keep appends b, n characters, to the kept part of the line: one
// character, or a run of n ASCII characters (so that the characters past
// maxLineChars are one byte each).
func (p *page) keep(b []byte, n int) {
	p.cur = append(p.cur, b...)
	p.curChars += n
	if mc := p.lim.MaxLineChars; mc > 0 {
		if p.curChars >= mc && p.curChars-n < mc {
			p.cutAt = len(p.cur) - (p.curChars - mc)
		}
		// One character more than max is kept: a line of max characters
		// and a '\r' before its '\n' is not cut.
		if p.curChars > mc {
			p.full = true
		}
		return
	}
	if len(p.cur) > p.room() {
		// Uncut, the line is already too big for what is left.
		p.doesNotFit()
	}
}

// checkCutFits stops early on a line that will be cut and whose cut form
// cannot fit what is left, so that a huge line after the first is not
// scanned to its end for nothing.
func (p *page) checkCutFits() {
	if p.extraChars == 0 || p.measuring {
		return
	}
	// At least max+2 characters: cut whatever the line ending.
	if p.cutAt+len("... [1 chars cut]") > p.room() {
		p.doesNotFit()
	}
}

// room is how many bytes the current line may take, its number included.
func (p *page) room() int {
	r := p.lim.MaxBytes - len(p.text)
	if p.lim.LineNumbers {
		r -= numberWidth(p.number())
	}
	return r
}

// doesNotFit handles a line found too big for the page: after the first
// line the page ends; the first line is measured so that the notice can
// say its size.
func (p *page) doesNotFit() {
	p.stop = StopBytes
	if p.shown > 0 {
		p.done = true
		return
	}
	p.measuring = true
	p.cur = p.cur[:0]
}

// endLine ends the current line: shown if it fits, else the page ends.
func (p *page) endLine(terminated bool) {
	if p.san != nil && !p.measuring {
		p.san.EndLine()
	}
	if p.carry.Len() > 0 {
		p.carry.Resolve(nil, true, p.char)
	}
	if p.measuring {
		p.endMeasured()
		return
	}
	chars := int64(p.curChars) + p.extraChars
	crlf := terminated && p.lastCR // the sanitizer dropped the '\r'; the ending keeps it
	body, ending := p.cur, ""
	p.marker = p.marker[:0]
	cut := p.lim.MaxLineChars > 0 && chars > int64(p.lim.MaxLineChars)
	switch {
	case cut:
		body = p.cur[:p.cutAt]
		p.marker = append(p.marker, "... ["...)
		p.marker = strconv.AppendInt(p.marker, chars-int64(p.lim.MaxLineChars), 10)
		p.marker = append(p.marker, " chars cut]"...)
	}
	switch {
	case crlf:
		ending = "\r\n"
	case terminated:
		ending = "\n"
	}
	size := len(body) + len(p.marker) + len(ending)
	if size > p.room() {
		p.doesNotFit()
		if p.measuring { // the first line: it has ended, so its size is known
			p.endMeasured()
		}
		return
	}
	textLen, contentLen := len(p.text), len(p.content)
	if p.lim.LineNumbers {
		p.text = appendNumber(p.text, p.number())
	}
	p.text = append(p.text, body...)
	p.text = append(p.text, p.marker...)
	p.text = append(p.text, ending...)
	p.content = append(p.content, body...)
	p.content = append(p.content, ending...)
	if p.lim.MaxTokens > 0 {
		with := p.tokens
		with.Write(p.text[textLen:])
		if with.Tokens() > int64(p.lim.MaxTokens) {
			// The line would pass the token limit: the page ends
			// before it, or, on the first line, shows its start as
			// a line over the byte limit does.
			p.text, p.content = p.text[:textLen], p.content[:contentLen]
			p.stop = StopTokens
			if p.shown > 0 {
				p.done = true
			} else {
				p.endMeasured()
			}
			return
		}
		p.tokens = with
	}
	if cut {
		p.linesCut++
		if p.firstCut == 0 {
			p.firstCut, p.firstCutBytes = p.number(), p.raw
		}
	}
	p.shown++
	p.resetLine()
	if p.shown >= int64(p.lim.MaxLines) {
		p.stop = StopLines
		p.done = true
	}
}

// endMeasured ends the page on the first line, which did not fit: the
// notice names it and says its size.
func (p *page) endMeasured() {
	p.overLine, p.overBytes = p.number(), p.raw
	p.done = true
}

func (p *page) resetLine() {
	p.started, p.raw, p.lastCR = false, 0, false
	p.cur = p.cur[:0]
	p.curChars, p.cutAt, p.full, p.extraChars = 0, 0, false, 0
	p.carry.Reset()
}

// appendNumber appends a cat -n style line number: right-aligned in six
// columns, then a tab.
func appendNumber(b []byte, n int64) []byte {
	var buf [24]byte
	s := strconv.AppendInt(buf[:0], n, 10)
	for i := len(s); i < 6; i++ {
		b = append(b, ' ')
	}
	b = append(b, s...)
	return append(b, '\t')
}

// numberWidth is the length of appendNumber's output for n.
func numberWidth(n int64) int {
	d := len(strconv.FormatInt(n, 10))
	return max(d, 6) + 1
}
