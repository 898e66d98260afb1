// Package textedit replaces exact strings in a file's bytes the way the
// edit tool promises: a match ignores the difference between "\r\n" and
// "\n" and a leading UTF-8 byte order mark; the new text takes the file's
// dominant line ending; every byte outside the matched ranges is kept as
// it was. Apply works on a file held in memory, Stream on a file of any
// size in bounded memory. Bytes that are not UTF-8 are matched and kept
// byte for byte: nothing is decoded.
package textedit

import (
	"bytes"
	"sort"
)

// BOM is the UTF-8 byte order mark.
var BOM = []byte{0xEF, 0xBB, 0xBF}

// EOL returns the dominant line ending of b: "\r\n" when more of its
// line ends are CRLF than LF, else "\n" (also for a tie and for no line
// end at all).
func EOL(b []byte) string {
	lf := bytes.Count(b, []byte{'\n'})
	crlf := bytes.Count(b, []byte("\r\n"))
	if crlf > lf-crlf {
		return "\r\n"
	}
	return "\n"
}

// WithEOL returns s with every line end ("\r\n" or "\n") written as eol.
func WithEOL(s, eol string) string {
	s = replaceAll(s, "\r\n", "\n")
	if eol == "\r\n" {
		s = replaceAll(s, "\n", "\r\n")
	}
	return s
}

func replaceAll(s, old, new string) string {
	if !bytes.Contains([]byte(s), []byte(old)) {
		return s
	}
	return string(bytes.ReplaceAll([]byte(s), []byte(old), []byte(new)))
}

// A view is a file's text as it is matched: the BOM left out and every
// "\r\n" read as "\n". Offsets in the view map back to the file's bytes.
type view struct {
	n    []byte  // the text matched
	bom  int     // bytes of BOM before the text (0 or 3)
	crlf []int64 // view offsets of each "\n" that was "\r\n" in the file
}

func newView(b []byte) view {
	bom := 0
	if bytes.HasPrefix(b, BOM) {
		bom = len(BOM)
	}
	v := viewOf(b[bom:])
	v.bom = bom
	return v
}

// viewOf is the view of b, a BOM in it read as text.
func viewOf(b []byte) view {
	v := view{}
	if !bytes.Contains(b, []byte("\r\n")) {
		v.n = b
		return v
	}
	v.n = make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			v.crlf = append(v.crlf, int64(len(v.n)))
			continue
		}
		v.n = append(v.n, b[i])
	}
	return v
}

// file maps a view offset to the file's: a match that starts at a CRLF's
// "\n" starts at its "\r", and one that ends after it takes both bytes.
func (v view) file(p int64) int64 {
	k := sort.Search(len(v.crlf), func(i int) bool { return v.crlf[i] >= p })
	return p + int64(k) + int64(v.bom)
}

// lineOf returns the 1-based line of view offset p.
func (v view) lineOf(p int) int {
	return 1 + bytes.Count(v.n[:p], []byte{'\n'})
}

// normOld is old as it is matched: a leading BOM left out, "\r\n" as "\n".
func normOld(s string) []byte {
	b := []byte(replaceAll(s, "\r\n", "\n"))
	return bytes.TrimPrefix(b, BOM)
}
