package files

import (
	"bytes"
	"unicode/utf8"

	"github.com/spillway-dev/spillway/output"
)

// A charPage collects part of one line: its characters from skip on, as
// many as maxBytes bytes hold, sanitized as every line read shows. It is
// how read pages through a line too long to show whole (a minified file,
// a log line of megabytes): offset names the line, char_offset the first
// character. Its memory is O(maxBytes) whatever the length of the line.
type charPage struct {
	skip      int64
	maxBytes  int
	maxTokens int                 // 0: no token limit
	tokens    output.TokenCounter // the estimate of text
	byTokens  bool                // the token limit ended the page

	san     *output.Sanitizer
	text    []byte // the characters shown
	skipped int64  // characters skipped so far
	more    bool   // a character past text follows in the line
	raw     int64  // the line's bytes, '\n' excluded
	lastCR  bool   // the line's last byte so far is '\r'
	ended   bool   // the line's '\n' was seen
	started bool
}

func newCharPage(skip int64, maxBytes, maxTokens int) *charPage {
	c := &charPage{skip: skip, maxBytes: maxBytes, maxTokens: maxTokens}
	c.san = output.NewLineSanitizer(c.take)
	return c
}

func (c *charPage) write(b []byte) bool {
	if c.ended {
		return true
	}
	c.started = true
	k := bytes.IndexByte(b, '\n')
	seg := b
	if k >= 0 {
		seg = b[:k]
	}
	if len(seg) > 0 {
		c.raw += int64(len(seg))
		c.lastCR = seg[len(seg)-1] == '\r'
		if !c.more {
			c.san.Write(seg)
		}
	}
	if k >= 0 {
		c.ended = true
		c.san.EndLine()
		return true
	}
	return false
}

func (c *charPage) close() {
	c.san.EndLine()
}

// take receives sanitized characters of the line (whole UTF-8 sequences).
func (c *charPage) take(b []byte) {
	for len(b) > 0 && !c.more {
		if c.skipped < c.skip {
			_, size := utf8.DecodeRune(b)
			b = b[size:]
			c.skipped++
			continue
		}
		_, size := utf8.DecodeRune(b)
		if len(c.text)+size > c.maxBytes {
			c.more = true
			return
		}
		if c.maxTokens > 0 {
			// At least one character is shown, so that paging on
			// always moves.
			with := c.tokens
			with.Write(b[:size])
			if with.Tokens() > int64(c.maxTokens) && len(c.text) > 0 {
				c.more, c.byTokens = true, true
				return
			}
			c.tokens = with
		}
		c.text = append(c.text, b[:size]...)
		b = b[size:]
	}
}

// ending is the line's ending as the file has it, once the page holds the
// line's last character; "" for a last line without one.
func (c *charPage) ending() string {
	switch {
	case c.more || !c.ended:
		return ""
	case c.lastCR:
		return "\r\n"
	default:
		return "\n"
	}
}
