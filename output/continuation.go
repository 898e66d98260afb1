package output

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// A Call is a tool call as an agent makes it: the tool's name under
// "tool" and its parameters beside it, e.g.
//
//	{"tool":"read","path":"/tmp/spillway-…/bash-3-stdout.log","offset":801,"limit":6900}
//
// Results that leave something out carry, in their details, the calls that
// show it ("next"): following them, and the calls their results name in
// turn, reaches every byte that was cut, and never the same call twice.
type Call map[string]any

// ReadCall returns the read call that shows limit lines of path from line
// offset (1-based), the first of them from its character charOffset
// (0-based) on. A limit of 0 leaves the range open to the end of the file;
// a charOffset of 0 starts at the beginning of the line.
func ReadCall(path string, offset, limit, charOffset int64) Call {
	c := Call{"tool": "read", "path": path, "offset": offset}
	if limit > 0 {
		c["limit"] = limit
	}
	if charOffset > 0 {
		c["char_offset"] = charOffset
	}
	return c
}

// Tool is the name of the called tool.
func (c Call) Tool() string {
	s, _ := c["tool"].(string)
	return s
}

// Words renders the call's parameters as a notice says them, in a fixed
// order: path first (unless omitPath), then the others by name, e.g.
// "offset=801 limit=6900".
func (c Call) Words(omitPath bool) string {
	keys := make([]string, 0, len(c))
	for k := range c {
		if k == "tool" || (k == "path" && omitPath) {
			continue
		}
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return paramRank(keys[i]) < paramRank(keys[j]) || paramRank(keys[i]) == paramRank(keys[j]) && keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := c[k]
		if s, ok := v.(string); ok && k != "path" {
			v = fmt.Sprintf("%q", s)
		}
		parts[i] = fmt.Sprintf("%s=%v", k, v)
	}
	return strings.Join(parts, " ")
}

// paramRank orders the parameters of a call in words: what to look at,
// then where, then how much.
func paramRank(k string) int {
	switch k {
	case "path":
		return 0
	case "pattern":
		return 1
	case "offset":
		return 2
	case "char_offset":
		return 3
	case "limit":
		return 4
	}
	return 5
}

// Next returns the calls that show what this result left out: one read of
// the spill file covering every line not shown whole, from the first
// position not shown (a line, and a character within it when the line was
// shown cut) to the last line not shown whole. The shown content is the
// stream up to that position (Head, from its start) and the stream after
// that range (Tail, from its end). Nil when nothing was left out, or
// when there is no spill file to read.
func (r Result) Next() []Call {
	t := r.Truncation
	if !t.Truncated || r.Binary || r.FullOutputPath == "" {
		return nil
	}
	line, char, end := r.notShown()
	if line == 0 {
		return nil
	}
	next := []Call{ReadCall(r.FullOutputPath, line, end-line+1, char)}
	// Around each failure line shown: the lines before and after it.
	for _, f := range r.Failures {
		from := max(1, f.Line-failureAround)
		next = append(next, ReadCall(r.FullOutputPath, from, f.Line+failureAround-from+1, 0))
	}
	if r.digest != nil {
		next = append(next, r.digest.greps...)
	}
	if r.fails.more > 0 {
		next = append(next, failureGrep(r.FullOutputPath))
	}
	return next
}

// failureAround is how many lines before and after a failure line the
// read call of it shows.
const failureAround = 10

// notShown returns the first position not shown whole (a line number and
// a character offset in it) and the last line not shown whole; line is 0
// when everything was shown.
func (r Result) notShown() (line, char, end int64) {
	t := r.Truncation
	if t.FirstLinePartial {
		return r.FirstLine, int64(utf8.RuneCountInString(r.Head)), r.LastLine
	}
	if t.LastLinePartial {
		return r.FirstLine, 0, r.LastLine
	}
	headEnd := r.FirstLine + r.HeadLines - 1
	tailStart := r.LastLine - r.TailLines + 1
	cutChars := int64(r.limits.MaxLineChars)
	switch {
	case r.FirstCut > 0 && r.FirstCut <= headEnd:
		line, char = r.FirstCut, cutChars
	case r.OmittedLines > 0:
		line = headEnd + 1
	case r.FirstCut > 0:
		line, char = r.FirstCut, cutChars
	default:
		return 0, 0, 0
	}
	switch {
	case r.LastCut >= tailStart && r.TailLines > 0:
		end = r.LastCut
	case r.OmittedLines > 0:
		end = headEnd + r.OmittedLines
	default:
		end = r.LastCut
	}
	return line, char, end
}
