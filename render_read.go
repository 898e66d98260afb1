package spillway

import (
	"context"
	"fmt"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/output"
)

// Values of ReadDetails.Kind.
const (
	kindText  = "text"
	kindImage = "image"
)

// emptyFileText is the whole text of a read of an empty file.
const emptyFileText = "(empty file)"

// readFile runs a read call on the file engine and renders the page it
// returns.
func readFile(ctx context.Context, tl *files.Tools, in ReadInput) (Result[ReadDetails], error) {
	p, err := tl.Read(ctx, in)
	if err != nil {
		return Result[ReadDetails]{}, err
	}
	return pageResult(p), nil
}

// pageResult turns a page into the read result: an image, part of one
// line, a line too long to show, or lines; the notices say what was left
// out and how to read on.
func pageResult(p files.Page) Result[ReadDetails] {
	switch {
	case p.Image != nil:
		return Result[ReadDetails]{
			Text: fmt.Sprintf("[Image %s (%s, %s)]", p.Path, p.Mime, output.FormatSize(p.Size)),
			Details: ReadDetails{
				Path: p.Path, Kind: kindImage, MimeType: p.Mime, Offset: 1,
				Truncation: output.Truncation{TotalBytes: p.Size, OutputBytes: p.Size},
			},
			Image:    p.Image,
			MimeType: p.Mime,
		}
	case p.Over != nil:
		return overLineResult(p)
	case p.Part != nil:
		return linePartResult(p)
	}
	return linesResult(p)
}

// linesResult shows lines of a text file, then a blank line and the
// notices, each on a line of its own.
func linesResult(p files.Page) Result[ReadDetails] {
	total, offset := p.TotalLines, p.Line
	last := offset + p.Shown - 1
	d := ReadDetails{
		Path: p.Path, Kind: kindText, MimeType: p.Mime, Offset: offset,
		LinesShown: p.Shown, TotalLines: total, LinesCut: p.LinesCut,
	}
	tr := &d.Truncation
	tr.TotalLines, tr.TotalBytes = total, p.Size
	tr.OutputLines, tr.OutputBytes = p.Shown, int64(len(p.Text))
	tr.LinesCut = p.LinesCut
	res := Result[ReadDetails]{Content: p.Content}

	switch {
	case total == 0 && offset == 1:
		res.Text = emptyFileText
	case offset > total:
		res.Text = fmt.Sprintf("[Offset %d is past the end of the file (%s)]", offset, output.Plural(total, "line", "lines"))
	default:
		var notices []string
		if p.LinesCut > 0 {
			next := output.ReadCall(p.Path, p.FirstCut, 0, int64(p.Policy.MaxLineChars))
			d.Next = []output.Call{next}
			if p.LinesCut == 1 {
				notices = append(notices, fmt.Sprintf("[Line %d cut at %d chars (line is %s). To see the rest of it: read with %s]",
					p.FirstCut, p.Policy.MaxLineChars, output.FormatSize(p.FirstCutBytes), next.Words(true)))
			} else {
				notices = append(notices, fmt.Sprintf("[%d lines cut at %d chars, the first is line %d (%s). To see the rest of it: read with %s, and on from there]",
					p.LinesCut, p.Policy.MaxLineChars, p.FirstCut, output.FormatSize(p.FirstCutBytes), next.Words(true)))
			}
		}
		if last < total {
			tr.Truncated = true
			limit := ""
			switch p.Stop {
			case files.StopBytes:
				tr.TruncatedBy = output.ByBytes
				limit = fmt.Sprintf(" (%s limit)", output.FormatSize(int64(p.Policy.MaxBytes)))
			case files.StopTokens:
				tr.TruncatedBy = output.ByTokens
				limit = fmt.Sprintf(" (%d tokens limit)", p.Policy.MaxTokens)
			default:
				tr.TruncatedBy = output.ByLines
			}
			if d.Next == nil {
				d.Next = []output.Call{output.ReadCall(p.Path, last+1, 0, 0)}
			}
			notices = append(notices, fmt.Sprintf("[Showing lines %d-%d of %d%s. Use offset=%d to continue]", offset, last, total, limit, last+1))
		}
		res.Text = joinNotices(p.Text, notices)
	}
	res.Details = d
	return res
}

// linePartResult shows part of one line: the characters shown (with the
// line's ending when they reach it), a blank line and the notice that
// says where they are in the line and how to go on.
func linePartResult(p files.Page) Result[ReadDetails] {
	part, total, offset := p.Part, p.TotalLines, p.Line
	n := part.Chars
	d := ReadDetails{
		Path: p.Path, Kind: kindText, MimeType: p.Mime, Offset: offset, CharOffset: part.From,
		LinesShown: 1, TotalLines: total,
	}
	tr := &d.Truncation
	tr.TotalLines, tr.TotalBytes = total, p.Size
	tr.OutputLines, tr.OutputBytes = 1, int64(len(p.Content))
	var notice string
	where := fmt.Sprintf("Line %d, characters %d-%d", offset, part.From+1, part.From+n)
	if n == 0 {
		// From is at most MaxInt64 (char_offset's bound): counted from 1
		// in unsigned, it does not wrap.
		where = fmt.Sprintf("Line %d has %s: nothing from character %d on", offset, output.Plural(part.Skipped, "character", "characters"), uint64(part.From)+1)
	}
	switch {
	case part.More:
		next := output.ReadCall(p.Path, offset, 0, part.From+n)
		d.Next = []output.Call{next}
		tr.Truncated, tr.TruncatedBy = true, output.ByBytes
		if part.ByTokens {
			tr.TruncatedBy = output.ByTokens
		}
		tr.FirstLinePartial = true
		notice = fmt.Sprintf("[%s of a %s line. Use char_offset=%d to continue]", where, output.FormatSize(part.LineBytes), part.From+n)
	case offset < total:
		d.Next = []output.Call{output.ReadCall(p.Path, offset+1, 0, 0)}
		tr.Truncated, tr.TruncatedBy = true, output.ByLines
		notice = fmt.Sprintf("[%s, the end of the line. Use offset=%d to continue]", where, offset+1)
	default:
		notice = fmt.Sprintf("[%s, the end of the file]", where)
	}
	return Result[ReadDetails]{Text: joinNotices(p.Content, []string{notice}), Content: p.Content, Details: d}
}

// overLineResult is the read of a page whose first line alone is over the
// byte limit, for a policy that never shows part of a line
// (docs/profiles.md, pi): no line, and a notice that says the line's size
// and the command that shows its start, "head -c" for the first line of
// the file and "sed -n" for a later one.
func overLineResult(p files.Page) Result[ReadDetails] {
	d := ReadDetails{
		Path: p.Path, Kind: kindText, MimeType: p.Mime, Offset: p.Line,
		TotalLines: p.TotalLines,
	}
	tr := &d.Truncation
	tr.Truncated, tr.TruncatedBy = true, output.ByBytes
	tr.TotalLines, tr.TotalBytes = p.TotalLines, p.Size
	q := files.ShellQuote(p.Path)
	how := fmt.Sprintf("Use bash to read: head -c %d %s", p.Policy.MaxBytes, q)
	if p.Line > 1 {
		how = fmt.Sprintf("Use bash: sed -n '%dp' %s | head -c %d", p.Line, q, p.Policy.MaxBytes)
	}
	text := fmt.Sprintf("[Line %d is %s, exceeds %s limit. %s]",
		p.Over.Line, output.FormatSize(p.Over.Bytes), output.FormatSize(int64(p.Policy.MaxBytes)), how)
	return Result[ReadDetails]{Text: text, Details: d}
}
