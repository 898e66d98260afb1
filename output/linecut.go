package output

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// A lineCutter shortens lines longer than max characters: the first max
// characters are kept and the line ends with "... [N chars cut]". Its input
// must be whole UTF-8 sequences (what a Sanitizer emits). A max of zero
// passes everything on.
type lineCutter struct {
	max  int
	emit func([]byte)
	// cutLine is told of each cut line, after its marker and before its
	// '\n'.
	cutLine func()

	runes    int   // characters of the current line so far (exact while ≤ max)
	cutting  bool  // past max on the current line
	cutChars int64 // characters dropped from the current line
	linesCut int64 // lines shortened so far
	marker   []byte
}

func (c *lineCutter) write(b []byte) {
	if c.max <= 0 {
		c.emit(b)
		return
	}
	start := 0 // b[start:i] is kept and not yet emitted
	i := 0
	for i < len(b) {
		if c.cutting {
			k := bytes.IndexByte(b[i:], '\n')
			if k < 0 {
				c.cutChars += int64(runeCount(b[i:]))
				i = len(b)
				start = i
				break
			}
			c.cutChars += int64(runeCount(b[i : i+k]))
			c.endCut()
			i += k // the '\n' is kept
			start = i
			i++
			c.runes = 0
			continue
		}
		room := c.max - c.runes
		// A '\n' within room+1 bytes ends the current line in time, and
		// every whole line before it is shorter than room bytes.
		end := min(len(b), i+room+1)
		if k := lastIndexByte(b[i:end], '\n'); k >= 0 {
			i += k + 1
			c.runes = 0
			continue
		}
		if end == len(b) && end-i <= room {
			c.runes += runeCount(b[i:])
			break
		}
		// At least room+1 bytes without a newline: count characters.
		j, n := i, 0
		for n < room && j < len(b) && b[j] != '\n' {
			_, size := utf8.DecodeRune(b[j:])
			j += size
			n++
		}
		switch {
		case j == len(b):
			c.runes += n
			i = j
		case b[j] == '\n':
			i = j + 1
			c.runes = 0
		default: // max characters reached and the line goes on
			c.emit(b[start:j])
			c.cutting = true
			c.cutChars = 0
			i = j
			start = j
		}
	}
	if !c.cutting && start < len(b) {
		c.emit(b[start:])
	}
}

// endCut closes the line being cut with its marker.
func (c *lineCutter) endCut() {
	c.marker = append(c.marker[:0], "... ["...)
	c.marker = strconv.AppendInt(c.marker, c.cutChars, 10)
	c.marker = append(c.marker, " chars cut]"...)
	c.emit(c.marker)
	if c.cutLine != nil {
		c.cutLine()
	}
	c.linesCut++
	c.cutting = false
	c.cutChars = 0
}

// close ends a last line that is being cut.
func (c *lineCutter) close() {
	if c.cutting {
		c.endCut()
	}
	c.runes = 0
}
