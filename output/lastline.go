package output

import (
	"bytes"
	"strings"
)

// recentSize is how much of the end of the sanitized stream a Pipeline
// keeps for LastLine: a prompt is one short line.
const recentSize = 512

// recent keeps the end of the sanitized stream.
type recent struct {
	buf []byte
}

func (r *recent) add(b []byte) {
	if len(b) >= recentSize {
		r.buf = append(r.buf[:0], b[len(b)-recentSize:]...)
		return
	}
	// Shifted only once it holds four times what is kept: a stream of
	// short writes costs a copy per byte, not per write.
	if len(r.buf)+len(b) > 4*recentSize {
		r.buf = append(r.buf[:0], r.buf[len(r.buf)-recentSize:]...)
	}
	r.buf = append(r.buf, b...)
}

// LastLine returns the last line of the stream that is not blank, as a
// terminal shows it once the sanitizer is done with it: the unfinished
// line a program is still writing (a prompt waiting for its answer), or
// else the last finished one. It is cut to its last 200 bytes, on a
// character boundary, and is "" for a binary stream or one with no
// text. It does not move the window.
func (p *Pipeline) LastLine() string {
	if !p.decided {
		p.decide()
	}
	if p.binary {
		return ""
	}
	text := append(append([]byte(nil), p.tail.buf...), p.san.held()...)
	for len(text) > 0 {
		text = bytes.TrimRight(text, " \t\n")
		i := bytes.LastIndexByte(text, '\n')
		line := strings.TrimSpace(string(text[i+1:]))
		if line != "" {
			return string(utf8Suffix([]byte(line), 200))
		}
		if i < 0 {
			break
		}
		text = text[:i]
	}
	return ""
}
