package spillway

import (
	"context"
	"fmt"
	"strings"

	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// noMatches is the text of a grep that found nothing, noFiles of a find.
const (
	noMatches = "No matches found"
	noFiles   = "No files found matching pattern"
)

// grepFiles runs a grep call on the search engine and renders what it
// found.
func grepFiles(ctx context.Context, s *search.Searcher, in GrepInput) (Result[GrepDetails], error) {
	f, err := s.Grep(ctx, in)
	if err != nil {
		return Result[GrepDetails]{}, err
	}
	return foundResult(in, f), nil
}

// findFiles runs a find call on the search engine and renders what it
// found.
func findFiles(ctx context.Context, s *search.Searcher, in FindInput) (Result[FindDetails], error) {
	names, err := s.Find(ctx, in)
	if err != nil {
		return Result[FindDetails]{}, err
	}
	return namesResult(in, names), nil
}

// foundResult shows what a grep found, then the notices: what the byte
// limit, the match limit and the line length left out, and how to see it.
func foundResult(in GrepInput, f search.Found) Result[GrepDetails] {
	out, mode := f.Out, f.Mode
	d := GrepDetails{
		MatchCount:        f.Matches,
		FileCount:         f.Files,
		MatchLimitReached: f.LimitReached,
		LinesCut:          len(f.Cut),
		Cut:               tool.Cut{Truncation: out.Truncation, FullOutputPath: out.FullOutputPath},
		Skips:             tool.Skips{Skipped: f.Skipped},
		Hidden:            f.Hidden,
	}
	t := &d.Truncation
	t.LinesCut = int64(len(f.Cut))
	switch {
	case t.Truncated:
	case f.LimitReached, f.Capped != "":
		t.Truncated, t.TruncatedBy = true, output.ByLines
	case len(f.Cut) > 0:
		t.Truncated, t.TruncatedBy = true, output.ByLineChars
	}
	var notices []string
	if bytesCut(out) {
		what := fmt.Sprintf("%d of %s shown", out.Truncation.OutputLines, output.Plural(out.Truncation.TotalLines, "line", "lines"))
		if mode == search.ModeContent {
			what += fmt.Sprintf(" (%s found)", output.Plural(int64(f.Matches), "match", "matches"))
		}
		notices = append(notices, byteNotice(f.Lines, what))
		if next := spillRead(f.Lines); next != nil {
			d.Next = append(d.Next, next)
		}
	}
	if f.LimitReached {
		unit := output.Noun(int64(f.Limit), "match", "matches")
		if mode != search.ModeContent {
			unit = output.Noun(int64(f.Limit), "file", "files")
		}
		more := in
		more.Limit = 2 * f.Limit
		d.Next = append(d.Next, grepCall(more))
		// The search stopped at the limit: what it found is a lower bound.
		found := ""
		if f.AtLeast > 0 {
			found = fmt.Sprintf(": at least %d found", f.AtLeast)
		}
		notices = append(notices, fmt.Sprintf("[%d %s limit reached%s. Use limit=%d for more, or refine pattern]", f.Limit, unit, found, 2*f.Limit))
	}
	if f.Capped != "" {
		notices = append(notices, fmt.Sprintf("[Search stopped in %s: its matches and context passed %s. Refine the pattern, or lower context]", f.Capped, output.FormatSize(f.Held)))
	}
	if len(f.Cut) > 0 {
		for _, l := range f.Cut {
			d.Next = append(d.Next, output.ReadCall(l.Path, l.Line, 1, 0))
		}
		first := output.ReadCall(f.Cut[0].Path, f.Cut[0].Line, 1, 0)
		notices = append(notices, fmt.Sprintf("[%s cut at %d chars, around the first match when it lies further in. To see a line whole, read it: e.g. %s]",
			output.Plural(int64(len(f.Cut)), "line", "lines"), f.MaxLineChars, first.Words(false)))
	}
	if f.Binary != "" {
		notices = append(notices, fmt.Sprintf("[%s is a binary file (a NUL byte in its first 8 KiB); not searched]", f.Binary))
	}
	notices = append(notices, skippedNotice(f.Lines), hiddenNotice(f.Hidden, f.HiddenBy, "file", "files"))
	body := shownLines(out)
	content := body
	if f.Count == 0 {
		body = noMatches
	}
	return Result[GrepDetails]{Text: joinText(body, notices), Details: d, Content: content}
}

// grepCall is in as a call of the grep tool, the parameters it was given
// and no others.
func grepCall(in GrepInput) output.Call {
	c := output.Call{"tool": "grep", "pattern": in.Pattern}
	set := func(k string, v any, given bool) {
		if given {
			c[k] = v
		}
	}
	set("path", in.Path, in.Path != "")
	set("glob", in.Glob, in.Glob != "")
	set("ignore_case", in.IgnoreCase, in.IgnoreCase)
	set("literal", in.Literal, in.Literal)
	set("context", in.Context, in.Context > 0)
	set("output_mode", in.OutputMode, in.OutputMode != "")
	set("limit", in.Limit, in.Limit > 0)
	return c
}

// namesResult shows the paths a find found, then the notices.
func namesResult(in FindInput, names search.Names) Result[FindDetails] {
	out := names.Out
	d := FindDetails{
		Count:              int(out.Truncation.OutputLines),
		ResultLimitReached: names.LimitReached,
		Cut:                tool.Cut{Truncation: out.Truncation, FullOutputPath: out.FullOutputPath},
		Skips:              tool.Skips{Skipped: names.Skipped},
		Hidden:             names.Hidden,
	}
	if names.LimitReached && !d.Truncation.Truncated {
		d.Truncation.Truncated, d.Truncation.TruncatedBy = true, output.ByLines
	}
	var notices []string
	if bytesCut(out) {
		notices = append(notices, byteNotice(names.Lines, fmt.Sprintf("%d of %s shown", d.Count, output.Plural(int64(names.Count), "result", "results"))))
		if next := spillRead(names.Lines); next != nil {
			d.Next = append(d.Next, next)
		}
	}
	if names.LimitReached {
		limit := names.Limit
		next := 2 * limit
		if names.TotalExact {
			next = names.Total
		}
		more := output.Call{"tool": "find", "pattern": in.Pattern, "limit": next}
		if in.Path != "" {
			more["path"] = in.Path
		}
		if in.Type != "" {
			more["type"] = in.Type
		}
		d.Next = append(d.Next, more)
		unit := output.Noun(int64(limit), "result", "results")
		switch {
		case names.TotalExact:
			notices = append(notices, fmt.Sprintf("[%d %s limit reached: %d found. Use limit=%d to list them all]", limit, unit, names.Total, next))
		case names.Total > 0:
			notices = append(notices, fmt.Sprintf("[%d %s limit reached: at least %d found. Use limit=%d for more, or refine pattern]", limit, unit, names.Total, next))
		default:
			notices = append(notices, fmt.Sprintf("[%d %s limit reached. Use limit=%d for more, or refine pattern]", limit, unit, next))
		}
	}
	notices = append(notices, skippedNotice(names.Lines), hiddenNotice(names.Hidden, names.HiddenBy, "path", "paths"))
	body := shownLines(out)
	content := body
	if names.Count == 0 {
		body = noFiles
	}
	return Result[FindDetails]{Text: joinText(body, notices), Details: d, Content: content}
}

// shownLines are the result lines shown, without the last '\n'.
func shownLines(out output.Result) string { return strings.TrimSuffix(out.Head, "\n") }

// bytesCut reports whether the byte limit, or the token limit, cut the
// result lines.
func bytesCut(out output.Result) bool {
	by := out.Truncation.TruncatedBy
	return by == output.ByBytes || by == output.ByTokens
}

// byteNotice is the notice of result lines cut by the byte limit, or the
// token limit: what they show ("842 of 1000 results"), where the rest is
// and how to read it.
func byteNotice(l search.Lines, shown string) string {
	var b strings.Builder
	if l.Out.Truncation.TruncatedBy == output.ByTokens {
		fmt.Fprintf(&b, "[%d tokens limit reached: %s", l.MaxTokens, shown)
	} else {
		fmt.Fprintf(&b, "[%s limit reached: %s", output.FormatSize(int64(l.MaxBytes)), shown)
	}
	res := l.Out
	switch {
	case res.SpillError != "":
		b.WriteString(". Full output could not be saved: " + res.SpillError)
	case res.FullOutputPath != "":
		b.WriteString(". Full output: " + res.FullOutputPath)
		if res.SpillCapped {
			fmt.Fprintf(&b, " (full output capped at %s)", output.FormatSize(res.SpillCap))
		}
		if next := spillRead(l); next != nil {
			b.WriteString(". To see the rest: read it with " + next.Words(true))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// spillRead is the read of the spill file that shows the lines the byte
// limit left out, or nil.
func spillRead(l search.Lines) output.Call {
	res := l.Out
	if !bytesCut(res) || res.FullOutputPath == "" || res.SpillError != "" {
		return nil
	}
	t := res.Truncation
	if t.FirstLinePartial {
		// One result longer than the limit, shown in part: the read goes
		// on inside it.
		if next := res.Next(); len(next) > 0 {
			return next[0]
		}
	}
	return output.ReadCall(res.FullOutputPath, t.OutputLines+1, t.TotalLines-t.OutputLines, 0)
}

// skippedNotice names the paths that could not be read, or "".
func skippedNotice(l search.Lines) string {
	if l.SkippedCount == 0 {
		return ""
	}
	s := fmt.Sprintf("[Skipped %d unreadable %s: %s", l.SkippedCount, output.Noun(int64(l.SkippedCount), "path", "paths"), strings.Join(l.Skipped, ", "))
	if more := l.SkippedCount - len(l.Skipped); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s + "]"
}

// hiddenNotice says how many files (or paths, or entries) the Read
// rules by kept out, naming the rules, or "".
func hiddenNotice(n int, by []string, one, many string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("[%s hidden by the Read %s %s]", output.Plural(int64(n), one, many), output.Noun(int64(len(by)), "rule", "rules"), strings.Join(by, ", "))
}

// joinText puts the result lines and the notices ("" for none) together.
func joinText(body string, notices []string) string {
	var ns []string
	for _, n := range notices {
		if n != "" {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return body
	}
	if body == "" {
		return strings.Join(ns, "\n")
	}
	return body + "\n\n" + strings.Join(ns, "\n")
}
