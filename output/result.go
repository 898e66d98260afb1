package output

import (
	"fmt"
	"strconv"
	"strings"
)

// A Result is what a Pipeline shows of its stream: pure content, apart from
// the metadata and notices that describe it.
type Result struct {
	// Head is the content shown from the start of the window; Tail the
	// content shown from its end. When everything fits, all of it is in Head.
	Head, Tail string
	// HeadLines and TailLines count the lines of Head and Tail.
	HeadLines, TailLines int64
	// FirstLine is the stream line number of the window's first line: 1,
	// unless the window follows a Cut.
	FirstLine int64
	// LastLine is the stream line number of the window's last line.
	LastLine int64
	// OmittedLines and OmittedBytes measure what lies between Head and Tail.
	OmittedLines, OmittedBytes int64
	// LineBytes is the size of the single line shown partially, if any.
	LineBytes int64
	// FirstCut and LastCut are the stream line numbers of the first and
	// the last shown line cut at MaxLineChars; 0 when none is.
	FirstCut, LastCut int64
	// Unfinished is, in a snapshot of a stream that is still being
	// written, its last line so far: text without a newline yet (a prompt,
	// a progress bar), which a later '\r' may still overwrite. It is not
	// part of the window: the window that holds the finished line shows it
	// again. At most maxUnfinished bytes of its end are kept.
	Unfinished string

	// Failures are the lines among those cut (between Head and Tail)
	// that look like failures (IsFailureLine), numbered in the stream, as
	// many as FailureShare of the byte limit shows; FailuresCut counts
	// them all, shown or not. FailureLines counts the lines of the whole
	// window that look like failures, shown or cut.
	Failures     []Failure
	FailuresCut  int64
	FailureLines int64
	fails        failureList
	// digest, when set, is what the result shows between Head and Tail
	// in place of the omission marker: the shapes of the lines cut and
	// the telling ones among them.
	digest *digest

	Truncation Truncation
	// Binary is true when the stream was judged binary: nothing is shown
	// and the raw bytes are in the spill file.
	Binary bool
	// BinaryBytes counts the bytes of the binary runs the stream held so
	// far under BinaryRegions: each is one notice line in the text, in
	// place of its bytes.
	BinaryBytes int64
	// FullOutputPath names the spill file, if one was created.
	FullOutputPath string
	// SpillCapped is true when the spill file stopped at its size cap,
	// SpillCap bytes.
	SpillCapped bool
	SpillCap    int64
	// SpillError says why the full output could not be saved.
	SpillError string

	limits Limits
}

// Text is the content as the model sees it: Head, the omission marker
// when something lies between, and Tail.
func (r Result) Text() string {
	text := r.Head + r.Tail
	marker := OmissionMarker(r.OmittedLines, r.OmittedBytes)
	switch {
	case r.digest != nil:
		text = r.Head + r.digest.text + r.Tail
	case r.FailuresCut > 0 && r.Tail != "" && r.HeadLines > 0:
		text = r.Head + r.failureText(marker) + r.Tail
	case r.FailuresCut > 0:
		text = r.Head + r.failureText(strings.Replace(marker, "omitted", "not shown", 1)) + r.Tail
	case r.Tail != "" && r.HeadLines > 0:
		text = r.Head + marker + "\n" + r.Tail
	}
	if r.Unfinished != "" {
		if text != "" && text[len(text)-1] != '\n' {
			text += "\n"
		}
		text += r.Unfinished
	}
	return text
}

// OmissionMarker is the line a head_tail result shows between its parts.
func OmissionMarker(lines, bytes int64) string {
	return fmt.Sprintf("[... %s (%s) omitted ...]", Plural(lines, "line", "lines"), FormatSize(bytes))
}

// Plural is n and its noun, as notices count: "1 line", "2 lines".
func Plural(n int64, one, many string) string {
	return strconv.FormatInt(n, 10) + " " + Noun(n, one, many)
}

// Noun is one when n is 1, else many.
func Noun(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Notice is the bracketed notice that says what was left out and where the
// full output is, or "" when nothing was left out. label ("stdout",
// "stderr" or "") names the stream.
func (r Result) Notice(label string) string {
	var b strings.Builder
	b.WriteByte('[')
	if r.Binary {
		fmt.Fprintf(&b, "binary output: %d bytes", r.Truncation.TotalBytes)
		r.writeSpill(&b)
		b.WriteByte(']')
		return b.String()
	}
	t := r.Truncation
	if !t.Truncated {
		return ""
	}
	if label != "" {
		b.WriteString(label + ": ")
	}
	switch {
	case t.TruncatedBy == ByLineChars:
		// Only lines cut: said below.
	case t.FirstLinePartial:
		fmt.Fprintf(&b, "showing the first %s of line %d (line is %s%s)", FormatSize(t.OutputBytes), r.FirstLine, FormatSize(r.LineBytes), r.tokenCause("; "))
	case t.LastLinePartial:
		fmt.Fprintf(&b, "showing the last %s of line %d (line is %s%s)", FormatSize(t.OutputBytes), r.LastLine, FormatSize(r.LineBytes), r.tokenCause("; "))
	case r.digest != nil:
		r.digestNotice(&b)
	default:
		b.WriteString("showing lines ")
		if r.HeadLines > 0 {
			fmt.Fprintf(&b, "%d-%d", r.FirstLine, r.FirstLine+r.HeadLines-1)
		}
		if r.HeadLines > 0 && r.TailLines > 0 {
			b.WriteString(" and ")
		}
		if r.TailLines > 0 {
			fmt.Fprintf(&b, "%d-%d", r.LastLine-r.TailLines+1, r.LastLine)
		}
		if r.HeadLines == 0 && r.TailLines == 0 {
			b.WriteString("none")
		}
		if r.FirstLine > 1 {
			// A window after a look (check_pid): its lines, numbered in
			// the whole stream.
			fmt.Fprintf(&b, " of the new lines %d-%d", r.FirstLine, r.LastLine)
		} else {
			fmt.Fprintf(&b, " of %d", r.LastLine)
		}
		switch t.TruncatedBy {
		case ByBytes:
			fmt.Fprintf(&b, " (%s limit)", FormatSize(int64(r.limits.MaxBytes)))
		case ByTokens:
			fmt.Fprintf(&b, " (%s)", r.tokenCause(""))
		}
	}
	if t.LinesCut > 0 {
		if t.TruncatedBy != ByLineChars {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s cut at %d chars", Plural(t.LinesCut, "line", "lines"), r.limits.MaxLineChars)
	}
	r.writeSpill(&b)
	if next := r.Next(); len(next) > 0 {
		b.WriteString(". To see what was cut: " + next[0].Tool() + " it with " + next[0].Words(true))
	}
	b.WriteByte(']')
	return b.String()
}

// tokenCause names the token limit, after sep, when it is what cut the
// result: "10000 tokens limit" (estimated tokens, see EstimateTokens).
func (r Result) tokenCause(sep string) string {
	if r.Truncation.TruncatedBy != ByTokens {
		return ""
	}
	return fmt.Sprintf("%s%d tokens limit", sep, r.limits.MaxTokens)
}

func (r Result) writeSpill(b *strings.Builder) {
	switch {
	case r.SpillError != "":
		b.WriteString(". Full output could not be saved: " + r.SpillError)
		if r.FullOutputPath != "" {
			b.WriteString(" (what was saved is in " + r.FullOutputPath + ")")
		}
	case r.FullOutputPath != "":
		b.WriteString(". Full output: " + r.FullOutputPath)
		if r.SpillCapped {
			fmt.Fprintf(b, " (full output capped at %s)", FormatSize(r.SpillCap))
		}
	}
}

// FormatSize renders a byte count the way notices do: 512B, 50.0KB, 3.2MB.
func FormatSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1fKB", float64(n)/1024)
	case n < 1024*1024*1024:
		return fmt.Sprintf("%.1fMB", float64(n)/(1024*1024))
	default:
		return fmt.Sprintf("%.1fGB", float64(n)/(1024*1024*1024))
	}
}

// failureText is what stands for the cut lines when some of them look like
// failures: the omission marker saying so, the failure lines numbered,
// and how many more there are.
func (r Result) failureText(marker string) string {
	s := failureHeader(r.FailuresCut, marker) + "\n" + r.fails.block
	if f := failureFooter(r.fails, r.FullOutputPath); f != "" {
		s += f + "\n"
	}
	return s
}
