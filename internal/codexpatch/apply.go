package codexpatch

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/spillway-dev/spillway/internal/textedit"
)

// A line of a file: its text and its line end ("\n", "\r\n" or "" for a
// last line without one).
type line struct {
	text string
	end  string
}

// lines splits a file's text (BOM already removed) into lines.
func lines(b []byte) []line {
	var ls []line
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			ls = append(ls, line{text: string(b)})
			break
		}
		l := line{text: string(b[:i]), end: "\n"}
		if i > 0 && b[i-1] == '\r' {
			l.text, l.end = string(b[:i-1]), "\r\n"
		}
		ls = append(ls, l)
		b = b[i+1:]
	}
	return ls
}

// AddContent returns the bytes of a file an add hunk creates: its lines,
// each ended with "\n".
func AddContent(h Hunk) []byte {
	var b bytes.Buffer
	for _, l := range h.Lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// A ChunkError says a chunk of an update does not apply to its file.
type ChunkError struct {
	Chunk     Chunk
	Msg       string
	Closest   []string
	CloseFrom int
}

func (e *ChunkError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the change at patch line %d %s", e.Chunk.Line, e.Msg)
	if len(e.Closest) > 0 {
		fmt.Fprintf(&b, "; the closest lines of the file are:\n")
		for i, l := range e.Closest {
			fmt.Fprintf(&b, "%6d\t%s\n", e.CloseFrom+i, l)
		}
		b.WriteString("Copy the context and removed lines from the file exactly")
	}
	return b.String()
}

// A replacement puts the chunk's lines in place of n file lines at start.
type replacement struct {
	start, n int
	ops      []Op
	chunk    Chunk
}

// ApplyUpdate applies an update's chunks to a file's content and returns
// the new content. Lines the chunks keep are kept byte for byte, lines
// they add take the file's dominant line end, and the BOM and the final
// line end (or its absence) stay as they were. Lines are found as Codex
// finds them: exactly, else ignoring trailing whitespace, else ignoring
// surrounding whitespace, else with typographic dashes, quotes and spaces
// read as ASCII.
func ApplyUpdate(content []byte, h Hunk) ([]byte, error) {
	body := content
	bom := bytes.HasPrefix(body, textedit.BOM)
	if bom {
		body = body[len(textedit.BOM):]
	}
	eol := textedit.EOL(body)
	finalEnd := len(body) == 0 || body[len(body)-1] == '\n'
	file := lines(body)
	texts := make([]string, len(file))
	for i, l := range file {
		texts[i] = l.text
	}
	reps, err := place(texts, h.Chunks)
	if err != nil {
		return nil, err
	}
	return join(splice(file, reps, eol), bom, eol, finalEnd), nil
}

// place finds where each chunk applies in the file's lines, each after
// the one before, and returns the replacements in the file's order; it
// fails on a chunk that is not found or that overlaps another.
func place(texts []string, chunks []Chunk) ([]replacement, error) {
	var reps []replacement
	at := 0
	for _, c := range chunks {
		r, next, err := placeChunk(texts, c, at)
		if err != nil {
			return nil, err
		}
		reps = append(reps, r)
		at = next
	}
	sort.SliceStable(reps, func(a, b int) bool { return reps[a].start < reps[b].start })
	for k := 1; k < len(reps); k++ {
		if reps[k].start < reps[k-1].start+reps[k-1].n {
			return nil, &ChunkError{Chunk: reps[k].chunk, Msg: fmt.Sprintf("overlaps the change at patch line %d", reps[k-1].chunk.Line)}
		}
	}
	return reps, nil
}

// placeChunk finds where one chunk applies, at or after line at: after
// its @@ line when it has one, where its kept and removed lines are. It
// returns the line the next chunk is looked for from.
func placeChunk(texts []string, c Chunk, at int) (replacement, int, error) {
	if c.Context != "" {
		i := seek(texts, []string{c.Context}, at, false)
		if i < 0 {
			ce := &ChunkError{Chunk: c, Msg: fmt.Sprintf("cannot find its @@ line %q in the file", c.Context)}
			ce.Closest, ce.CloseFrom = closest(texts, []string{c.Context})
			return replacement{}, at, ce
		}
		at = i + 1
	}
	ops := c.Ops
	old := c.Old()
	if len(old) == 0 {
		// Only added lines: after the @@ line, or at the end.
		pos := len(texts)
		if c.Context != "" {
			pos = at
		}
		return replacement{start: pos, ops: ops, chunk: c}, at, nil
	}
	i := seek(texts, old, at, c.EOF)
	if i < 0 && old[len(old)-1] == "" {
		// A last empty line may stand for the file's final line end.
		ops = dropLastEmpty(ops)
		old = old[:len(old)-1]
		i = seek(texts, old, at, c.EOF)
	}
	if i < 0 {
		msg := "does not match the file: its kept and removed lines are not there"
		if c.EOF {
			msg = "does not match the end of the file (*** End of File)"
		}
		if c.Context != "" {
			msg += fmt.Sprintf(" after its @@ line %q (line %d)", c.Context, at)
		}
		ce := &ChunkError{Chunk: c, Msg: msg}
		ce.Closest, ce.CloseFrom = closest(texts, old)
		return replacement{}, at, ce
	}
	return replacement{start: i, n: len(old), ops: ops, chunk: c}, i + len(old), nil
}

// splice returns the file's lines with the replacements made: kept lines
// as they were, added lines with the line end eol.
func splice(file []line, reps []replacement, eol string) []line {
	var out []line
	pos := 0
	for _, r := range reps {
		out = append(out, file[pos:r.start]...)
		j := r.start
		for _, op := range r.ops {
			switch op.Kind {
			case ' ':
				out = append(out, file[j])
				j++
			case '-':
				j++
			case '+':
				out = append(out, line{text: op.Text, end: eol})
			}
		}
		pos = r.start + r.n
	}
	return append(out, file[pos:]...)
}

// join writes the lines back as a file: with the BOM when it had one, a
// line end after every line but the last, and after the last only when
// the file ended with one (finalEnd).
func join(out []line, bom bool, eol string, finalEnd bool) []byte {
	var b bytes.Buffer
	if bom {
		b.Write(textedit.BOM)
	}
	for i, l := range out {
		b.WriteString(l.text)
		switch {
		case i < len(out)-1 && l.end == "":
			b.WriteString(eol) // a line that was last is last no more
		case i == len(out)-1 && !finalEnd:
			// The file had no final line end: it still has none.
		case i == len(out)-1 && l.end == "":
			b.WriteString(eol)
		default:
			b.WriteString(l.end)
		}
	}
	return b.Bytes()
}

// dropLastEmpty removes the last kept or removed empty line of ops (and
// the last added empty line after it, which stood for the same line end).
func dropLastEmpty(ops []Op) []Op {
	out := append([]Op(nil), ops...)
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Kind == '+' {
			continue
		}
		kind := out[i].Kind
		out = append(out[:i], out[i+1:]...)
		if n := len(out); kind == '-' && n > 0 && out[n-1].Kind == '+' && out[n-1].Text == "" {
			out = out[:n-1]
		}
		break
	}
	return out
}

// seek finds want in lines at or after start, from the strictest way of
// comparing to the most lenient, and returns its index or -1. With eof
// only the position that ends at the end of the file is tried.
func seek(lines, want []string, start int, eof bool) int {
	if len(want) == 0 {
		return start
	}
	if len(want) > len(lines) {
		return -1
	}
	from, to := start, len(lines)-len(want)
	if eof {
		from = len(lines) - len(want)
	}
	for _, eq := range []func(a, b string) bool{
		func(a, b string) bool { return a == b },
		func(a, b string) bool { return strings.TrimRight(a, " \t\r\v\f") == strings.TrimRight(b, " \t\r\v\f") },
		func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) },
		func(a, b string) bool { return normalize(a) == normalize(b) },
	} {
	next:
		for i := from; i <= to; i++ {
			for j, w := range want {
				if !eq(lines[i+j], w) {
					continue next
				}
			}
			return i
		}
	}
	return -1
}

// normalize reads typographic dashes, quotes and spaces as ASCII, as a
// model writing ASCII means them.
func normalize(s string) string {
	s = strings.TrimSpace(s)
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			return '-'
		case '\u2018', '\u2019', '\u201A', '\u201B':
			return '\''
		case '\u201C', '\u201D', '\u201E', '\u201F':
			return '"'
		case '\u00A0', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
			return ' '
		}
		return r
	}, s)
}

// closest finds the lines most like want, for an error to show.
func closest(texts, want []string) ([]string, int) {
	return textedit.Closest([]byte(strings.Join(texts, "\n")), []byte(strings.Join(want, "\n")))
}
