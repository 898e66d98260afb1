// Package codexpatch reads patches in the format Codex's models write
// (`*** Begin Patch` … `*** End Patch`) and applies their hunks to the
// text of one file in memory. It touches no file: the caller reads the
// files, checks every hunk applies, and only then writes, so that a patch
// changes all its files or none.
//
// The grammar, as Codex's models are trained on it:
//
//	patch   := "*** Begin Patch" NL hunk* "*** End Patch" NL?
//	hunk    := add | delete | update
//	add     := "*** Add File: " path NL ("+" line NL)*
//	delete  := "*** Delete File: " path NL
//	update  := "*** Update File: " path NL ("*** Move to: " path NL)? chunk+
//	chunk   := ("@@" | "@@ " context) NL? ((" " | "+" | "-") line NL)+ ("*** End of File" NL)?
//
// As Codex does, the parser forgives whitespace around the markers, a
// missing "@@" before the first chunk, blank lines between chunks, CRLF
// line ends and a heredoc wrapper (<<'EOF' … EOF) left around the patch.
package codexpatch

import (
	"errors"
	"fmt"
	"strings"
)

// Markers of the format.
const (
	beginPatch  = "*** Begin Patch"
	endPatch    = "*** End Patch"
	addFile     = "*** Add File: "
	deleteFile  = "*** Delete File: "
	updateFile  = "*** Update File: "
	moveTo      = "*** Move to: "
	endOfFile   = "*** End of File"
	contextMark = "@@"
)

// Kind is what a hunk does to its file.
type Kind int

// The kinds of hunks.
const (
	Add Kind = iota
	Delete
	Update
)

func (k Kind) String() string {
	switch k {
	case Add:
		return "add"
	case Delete:
		return "delete"
	}
	return "update"
}

// A Hunk is the change of one file.
type Hunk struct {
	Kind Kind
	// Path is the file the hunk names, as written in the patch.
	Path string
	// MoveTo, for an update, is where the file goes ("" for nowhere).
	MoveTo string
	// Lines, for an add, are the new file's lines, without line ends.
	Lines []string
	// Chunks, for an update, are its changes in file order.
	Chunks []Chunk
	// Line is the hunk's header line in the patch (1-based).
	Line int
}

// An Op is one line of a chunk: ' ' (kept), '-' (removed) or '+' (added).
type Op struct {
	Kind byte
	Text string
}

// A Chunk is one contiguous change of an update.
type Chunk struct {
	// Context is the text after "@@ ": a line (a function or class
	// header) the change comes after. "" when the chunk has none.
	Context string
	// Ops are the chunk's lines in order.
	Ops []Op
	// EOF is set when the chunk must end at the end of the file.
	EOF bool
	// Line is the chunk's first line in the patch (1-based).
	Line int
}

// Old returns the lines the chunk expects in the file: its kept and
// removed lines.
func (c Chunk) Old() []string {
	var s []string
	for _, op := range c.Ops {
		if op.Kind != '+' {
			s = append(s, op.Text)
		}
	}
	return s
}

// New returns the lines the chunk leaves: its kept and added lines.
func (c Chunk) New() []string {
	var s []string
	for _, op := range c.Ops {
		if op.Kind != '-' {
			s = append(s, op.Text)
		}
	}
	return s
}

// A Patch is a parsed patch.
type Patch struct {
	Hunks []Hunk
}

// A ParseError says where a patch is malformed and what was expected.
type ParseError struct {
	Line int // 1-based line of the patch text; 0 for the patch as a whole
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return "invalid patch: " + e.Msg
	}
	return fmt.Sprintf("invalid patch, line %d: %s", e.Line, e.Msg)
}

// ErrNoHunks is returned for a patch with no hunk in it.
var ErrNoHunks = errors.New("the patch changes no file: give at least one *** Add File:, *** Update File: or *** Delete File: section")

// Limits on a patch, checked before it is parsed: its text is the
// model's, and every line becomes a string header of its own (16 bytes,
// so 8 MiB of newlines would be 128 MiB), every file a read of that file
// before anything is written. A model writes patches of a few hundred
// lines; these are far above that and far below what hurts the server.
const (
	MaxPatchBytes = 8 << 20
	MaxPatchLines = 200_000
	MaxPatchFiles = 1000
)

// A LimitError is a patch past one of the limits: Limit names it.
type LimitError struct {
	Limit string // "MaxPatchBytes", "MaxPatchLines" or "MaxPatchFiles"
	Msg   string
}

func (e *LimitError) Error() string { return "patch refused: " + e.Msg }

// Parse reads a patch.
func Parse(text string) (*Patch, error) {
	if len(text) > MaxPatchBytes {
		return nil, &LimitError{"MaxPatchBytes", fmt.Sprintf("it is %d bytes, over the limit of %d bytes on a patch (MaxPatchBytes): split it into several patches", len(text), MaxPatchBytes)}
	}
	if n := strings.Count(text, "\n") + 1; n > MaxPatchLines {
		return nil, &LimitError{"MaxPatchLines", fmt.Sprintf("it has %d lines, over the limit of %d lines on a patch (MaxPatchLines): split it into several patches", n, MaxPatchLines)}
	}
	lines := splitLines(strings.TrimSpace(text))
	body, first, err := boundaries(lines)
	if err != nil {
		return nil, err
	}
	p := &Patch{}
	for i := 0; i < len(body); {
		if strings.TrimSpace(body[i]) == "" {
			i++ // blank lines between hunks
			continue
		}
		if len(p.Hunks) == MaxPatchFiles {
			return nil, &LimitError{"MaxPatchFiles", fmt.Sprintf("it changes more than %d files, the limit on a patch (MaxPatchFiles): split it into several patches", MaxPatchFiles)}
		}
		h, n, err := parseHunk(body[i:], first+i)
		if err != nil {
			return nil, err
		}
		p.Hunks = append(p.Hunks, h)
		i += n
	}
	if len(p.Hunks) == 0 {
		return nil, ErrNoHunks
	}
	return p, nil
}

// splitLines splits on "\n" and drops a "\r" before it, as the patch may
// have been written with CRLF line ends.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// boundaries checks the begin and end markers and returns the lines
// between them and the 1-based line number of the first of those.
func boundaries(lines []string) ([]string, int, error) {
	body, err := strictBoundaries(lines)
	if err == nil {
		return body, 2, nil
	}
	// A heredoc wrapper left around the patch: <<'EOF' … EOF.
	if n := len(lines); n >= 4 {
		switch lines[0] {
		case "<<EOF", "<<'EOF'", `<<"EOF"`:
			if strings.HasSuffix(lines[n-1], "EOF") {
				if body, err2 := strictBoundaries(lines[1 : n-1]); err2 == nil {
					return body, 3, nil
				}
			}
		}
	}
	return nil, 0, err
}

func strictBoundaries(lines []string) ([]string, error) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != beginPatch {
		return nil, &ParseError{Line: 1, Msg: "the first line of the patch must be '*** Begin Patch'"}
	}
	if len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != endPatch {
		return nil, &ParseError{Line: len(lines), Msg: "the last line of the patch must be '*** End Patch'"}
	}
	return lines[1 : len(lines)-1], nil
}

// parseHunk reads the hunk at the start of lines, whose first is line
// number ln of the patch, and returns it with the number of lines it took.
func parseHunk(lines []string, ln int) (Hunk, int, error) {
	head := strings.TrimSpace(lines[0])
	switch {
	case strings.HasPrefix(head, addFile):
		h := Hunk{Kind: Add, Path: strings.TrimSpace(head[len(addFile):]), Line: ln}
		if h.Path == "" {
			return h, 0, &ParseError{Line: ln, Msg: "*** Add File: needs a path"}
		}
		n := 1
		for ; n < len(lines) && strings.HasPrefix(lines[n], "+"); n++ {
			h.Lines = append(h.Lines, lines[n][1:])
		}
		return h, n, nil
	case strings.HasPrefix(head, deleteFile):
		h := Hunk{Kind: Delete, Path: strings.TrimSpace(head[len(deleteFile):]), Line: ln}
		if h.Path == "" {
			return h, 0, &ParseError{Line: ln, Msg: "*** Delete File: needs a path"}
		}
		return h, 1, nil
	case strings.HasPrefix(head, updateFile):
		return parseUpdate(lines, ln)
	}
	return Hunk{}, 0, &ParseError{Line: ln, Msg: fmt.Sprintf("%q is not a hunk header: each section starts with '*** Add File: PATH', '*** Delete File: PATH' or '*** Update File: PATH'", clip(lines[0]))}
}

func parseUpdate(lines []string, ln int) (Hunk, int, error) {
	h := Hunk{Kind: Update, Path: strings.TrimSpace(strings.TrimSpace(lines[0])[len(updateFile):]), Line: ln}
	if h.Path == "" {
		return h, 0, &ParseError{Line: ln, Msg: "*** Update File: needs a path"}
	}
	n := 1
	if n < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[n]), moveTo) {
		h.MoveTo = strings.TrimSpace(strings.TrimSpace(lines[n])[len(moveTo):])
		if h.MoveTo == "" {
			return h, 0, &ParseError{Line: ln + n, Msg: "*** Move to: needs a path"}
		}
		n++
	}
	for n < len(lines) {
		if strings.TrimSpace(lines[n]) == "" {
			n++ // blank lines between chunks
			continue
		}
		if strings.HasPrefix(lines[n], "*") {
			break // the next hunk
		}
		c, used, err := parseChunk(lines[n:], ln+n, len(h.Chunks) == 0)
		if err != nil {
			return h, 0, err
		}
		h.Chunks = append(h.Chunks, c)
		n += used
	}
	if len(h.Chunks) == 0 {
		return h, 0, &ParseError{Line: ln, Msg: fmt.Sprintf("*** Update File: %s has no change: add lines starting with ' ', '-' or '+' after an @@ line", h.Path)}
	}
	return h, n, nil
}

// parseChunk reads one chunk. The first chunk of an update may leave out
// its "@@" line.
func parseChunk(lines []string, ln int, first bool) (Chunk, int, error) {
	c := Chunk{Line: ln}
	start := 0
	switch l := lines[0]; {
	case l == contextMark || strings.TrimSpace(l) == contextMark:
		start = 1
	case strings.HasPrefix(l, contextMark+" "):
		c.Context = l[len(contextMark)+1:]
		start = 1
	case !first:
		return c, 0, &ParseError{Line: ln, Msg: fmt.Sprintf("expected an @@ line to start the next change, got %q", clip(l))}
	}
	n := 0
	for _, l := range lines[start:] {
		if strings.TrimSpace(l) == endOfFile {
			if n == 0 {
				break
			}
			c.EOF = true
			n++
			break
		}
		if l == "" {
			// An empty line is an empty kept line whose space was lost.
			c.Ops = append(c.Ops, Op{' ', ""})
			n++
			continue
		}
		switch l[0] {
		case ' ', '+', '-':
			c.Ops = append(c.Ops, Op{l[0], l[1:]})
			n++
			continue
		}
		if n == 0 {
			return c, 0, &ParseError{Line: ln + start, Msg: fmt.Sprintf("unexpected line %q in a change: each line starts with ' ' (kept), '-' (removed) or '+' (added)", clip(l))}
		}
		break
	}
	if n == 0 || len(c.Ops) == 0 {
		return c, 0, &ParseError{Line: ln, Msg: "a change (@@) has no lines: add lines starting with ' ', '-' or '+'"}
	}
	return c, start + n, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
