package textedit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway/tool"
)

// An Edit replaces OldString with NewString: once, and OldString must
// then occur exactly once, or everywhere when ReplaceAll is set.
type Edit = tool.EditOp

// A Range is a run of bytes [Start, End) of a file.
type Range struct{ Start, End int64 }

// A Step is what one edit did: the ranges it replaced, in the bytes it
// was applied to (the file, or the result of the edits before it), the
// bytes it put in each, and the first line of each.
type Step struct {
	Ranges []Range
	New    []byte
	Lines  []int
}

// maxLinesShown bounds the line numbers an error lists.
const maxLinesShown = 5

// A MatchError says why an edit cannot be applied: Old occurs Count times
// (0, or more than once without All). The file is left as it was.
type MatchError struct {
	Edit  int // index of the edit among the edits given
	Edits int // how many edits were given
	Count int
	// Lines are the 1-based lines of the first matches.
	Lines []int
	// Closest, when Count is 0, are the lines of the file most like Old,
	// to copy from; CloseFrom is the first one's number.
	Closest   []string
	CloseFrom int
	// Note says more (for instance why Closest is empty).
	Note string
}

func (e *MatchError) Error() string {
	var b strings.Builder
	which := "old_string"
	if e.Edits > 1 {
		which = fmt.Sprintf("edits[%d].old_string", e.Edit)
	}
	if e.Count == 0 {
		fmt.Fprintf(&b, "Could not find the exact text of %s in the file", which)
		if e.Edits > 1 && e.Edit > 0 {
			fmt.Fprintf(&b, " (after edits[0..%d] were applied)", e.Edit-1)
		}
		b.WriteString("; nothing was changed.")
		if len(e.Closest) > 0 {
			fmt.Fprintf(&b, " The closest lines are %s:\n", span(e.CloseFrom, len(e.Closest)))
			for i, l := range e.Closest {
				fmt.Fprintf(&b, "%6d\t%s\n", e.CloseFrom+i, clipLine(l))
			}
			b.WriteString("Copy old_string from the file exactly, whitespace included.")
		}
		if e.Note != "" {
			b.WriteString(" " + e.Note)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "Found %d occurrences of %s in the file, at %s; nothing was changed. Give more of the surrounding lines to make it unique, or set replace_all to replace every one.",
		e.Count, which, lineList(e.Lines, e.Count))
	return b.String()
}

func span(from, n int) string {
	if n == 1 {
		return fmt.Sprintf("line %d", from)
	}
	return fmt.Sprintf("lines %d-%d", from, from+n-1)
}

func lineList(lines []int, count int) string {
	var b strings.Builder
	u := slices.Compact(slices.Clone(lines))
	b.WriteString("line")
	if len(u) > 1 {
		b.WriteString("s")
	}
	for i, l := range u {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d", l)
	}
	if count > len(lines) {
		fmt.Fprintf(&b, " and %d more", count-len(lines))
	}
	return b.String()
}

func clipLine(s string) string {
	const max = 200
	if len(s) > max {
		cut := max
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		return s[:cut] + fmt.Sprintf("… [%d chars cut]", len(s)-cut)
	}
	return s
}

// Errors of edits that cannot be tried.
var (
	ErrEmptyOld = errors.New("old_string is empty: give the exact text to replace (to create a file or replace it whole, use write)")
	ErrSame     = errors.New("old_string and new_string are the same: there is nothing to change")
	ErrNoEdits  = errors.New("no edit given: give old_string and new_string, or edits")
)

// Apply applies the edits in order to content, each to the result of the
// ones before, and returns the new content and what each edit did. If
// any edit cannot be applied, it returns an error (a *MatchError when Old
// is missing or ambiguous) and content is untouched.
func Apply(content []byte, edits []Edit) ([]byte, []Step, error) {
	if len(edits) == 0 {
		return nil, nil, ErrNoEdits
	}
	for i, e := range edits {
		if err := check(e); err != nil {
			if len(edits) > 1 {
				return nil, nil, fmt.Errorf("edits[%d]: %w", i, err)
			}
			return nil, nil, err
		}
	}
	eol := EOL(content)
	cur := content
	steps := make([]Step, 0, len(edits))
	for i, e := range edits {
		next, st, err := apply(cur, e, eol)
		if err != nil {
			var me *MatchError
			if errors.As(err, &me) {
				me.Edit, me.Edits = i, len(edits)
			}
			return nil, nil, err
		}
		steps = append(steps, st)
		cur = next
	}
	return cur, steps, nil
}

func check(e Edit) error {
	if len(normOld(e.OldString)) == 0 {
		return ErrEmptyOld
	}
	if e.OldString == e.NewString {
		return ErrSame
	}
	return nil
}

func apply(content []byte, e Edit, eol string) ([]byte, Step, error) {
	v := newView(content)
	old := normOld(e.OldString)
	var found []int
	count := 0
	for off := 0; ; {
		i := bytes.Index(v.n[off:], old)
		if i < 0 {
			break
		}
		count++
		if e.ReplaceAll || len(found) < maxLinesShown {
			found = append(found, off+i)
		}
		off += i + len(old)
	}
	if count == 0 {
		me := &MatchError{}
		me.Closest, me.CloseFrom = Closest(v.n, old)
		return nil, Step{}, me
	}
	if count > 1 && !e.ReplaceAll {
		me := &MatchError{Count: count}
		for _, p := range found {
			me.Lines = append(me.Lines, v.lineOf(p))
		}
		return nil, Step{}, me
	}
	nb := []byte(WithEOL(e.NewString, eol))
	st := Step{New: nb}
	out := make([]byte, 0, len(content)+count*(len(nb)-len(old)))
	var last int64
	line, lineAt := 1, 0
	for _, p := range found {
		r := Range{v.file(int64(p)), v.file(int64(p + len(old)))}
		st.Ranges = append(st.Ranges, r)
		line += bytes.Count(v.n[lineAt:p], []byte{'\n'})
		lineAt = p
		st.Lines = append(st.Lines, line)
		out = append(out, content[last:r.Start]...)
		out = append(out, nb...)
		last = r.End
	}
	out = append(out, content[last:]...)
	return out, st, nil
}
