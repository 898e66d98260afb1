package files

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spillway-dev/spillway/output"
)

// emptyFileText is the whole text of a read of an empty file.
const emptyFileText = "(empty file)"

// renderText turns a page of a text file into the read result: the shown
// lines, then a blank line and the notices, each on a line of its own.
func renderText(path, mime string, offset int64, lim pageLimits, pg *page, idx *lineIndex) ReadResult {
	total := idx.totalLines
	last := offset + pg.shown - 1
	d := ReadDetails{
		Path: path, Kind: KindText, MimeType: mime, Offset: offset,
		LinesShown: pg.shown, TotalLines: total, LinesCut: pg.linesCut,
	}
	tr := &d.Truncation
	tr.TotalLines, tr.TotalBytes = total, idx.size
	tr.OutputLines, tr.OutputBytes = pg.shown, int64(len(pg.text))
	tr.LinesCut = pg.linesCut
	res := ReadResult{Content: string(pg.content)}

	switch {
	case total == 0 && offset == 1:
		res.Text = emptyFileText
	case offset > total:
		res.Text = fmt.Sprintf("[Offset %d is past the end of the file (%s)]", offset, output.Plural(total, "line", "lines"))
	default:
		var notices []string
		if pg.linesCut > 0 {
			next := output.ReadCall(path, pg.firstCut, 0, int64(lim.maxLineChars))
			d.Next = []output.Call{next}
			if pg.linesCut == 1 {
				notices = append(notices, fmt.Sprintf("[Line %d cut at %d chars (line is %s). To see the rest of it: read with %s]",
					pg.firstCut, lim.maxLineChars, output.FormatSize(pg.firstCutBytes), next.Words(true)))
			} else {
				notices = append(notices, fmt.Sprintf("[%d lines cut at %d chars, the first is line %d (%s). To see the rest of it: read with %s, and on from there]",
					pg.linesCut, lim.maxLineChars, pg.firstCut, output.FormatSize(pg.firstCutBytes), next.Words(true)))
			}
		}
		if last < total {
			tr.Truncated = true
			limit := ""
			switch pg.stop {
			case stopBytes:
				tr.TruncatedBy = output.ByBytes
				limit = fmt.Sprintf(" (%s limit)", output.FormatSize(int64(lim.maxBytes)))
			case stopTokens:
				tr.TruncatedBy = output.ByTokens
				limit = fmt.Sprintf(" (%d tokens limit)", lim.maxTokens)
			default:
				tr.TruncatedBy = output.ByLines
			}
			if d.Next == nil {
				d.Next = []output.Call{output.ReadCall(path, last+1, 0, 0)}
			}
			notices = append(notices, fmt.Sprintf("[Showing lines %d-%d of %d%s. Use offset=%d to continue]", offset, last, total, limit, last+1))
		}
		res.Text = joinNotices(string(pg.text), notices)
	}
	res.Details = d
	return res
}

// joinNotices puts the notices after the content, a blank line between.
func joinNotices(content string, notices []string) string {
	if len(notices) == 0 {
		return content
	}
	var b strings.Builder
	b.WriteString(content)
	if content != "" {
		if !strings.HasSuffix(content, "\n") {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Join(notices, "\n"))
	return b.String()
}

// renderChars turns part of one line into the read result: the characters
// shown (with the line's ending when they reach it), a blank line and the
// notice that says where they are in the line and how to go on.
func renderChars(path, mime string, offset, charOffset int64, cp *charPage, idx *lineIndex) ReadResult {
	total := idx.totalLines
	n := int64(utf8.RuneCount(cp.text))
	content := string(cp.text) + cp.ending()
	d := ReadDetails{
		Path: path, Kind: KindText, MimeType: mime, Offset: offset, CharOffset: charOffset,
		LinesShown: 1, TotalLines: total,
	}
	tr := &d.Truncation
	tr.TotalLines, tr.TotalBytes = total, idx.size
	tr.OutputLines, tr.OutputBytes = 1, int64(len(content))
	var notice string
	where := fmt.Sprintf("Line %d, characters %d-%d", offset, charOffset+1, charOffset+n)
	if n == 0 {
		where = fmt.Sprintf("Line %d has %s: nothing from character %d on", offset, output.Plural(cp.skipped, "character", "characters"), charOffset+1)
	}
	switch {
	case cp.more:
		next := output.ReadCall(path, offset, 0, charOffset+n)
		d.Next = []output.Call{next}
		tr.Truncated, tr.TruncatedBy = true, output.ByBytes
		if cp.byTokens {
			tr.TruncatedBy = output.ByTokens
		}
		tr.FirstLinePartial = true
		notice = fmt.Sprintf("[%s of a %s line. Use char_offset=%d to continue]", where, output.FormatSize(cp.raw), charOffset+n)
	case offset < total:
		d.Next = []output.Call{output.ReadCall(path, offset+1, 0, 0)}
		tr.Truncated, tr.TruncatedBy = true, output.ByLines
		notice = fmt.Sprintf("[%s, the end of the line. Use offset=%d to continue]", where, offset+1)
	default:
		notice = fmt.Sprintf("[%s, the end of the file]", where)
	}
	return ReadResult{Text: joinNotices(content, []string{notice}), Content: content, Details: d}
}

// renderOverLine is the read result of a page whose first line alone is
// over the byte limit, for a policy that never shows part of a line
// (docs/profiles.md, pi): no line, and a notice that says the line's size
// and the command that shows its start, "head -c" for the first line of
// the file and "sed -n" for a later one.
func renderOverLine(path, mime string, offset int64, lim pageLimits, pg *page, idx *lineIndex) ReadResult {
	d := ReadDetails{
		Path: path, Kind: KindText, MimeType: mime, Offset: offset,
		TotalLines: idx.totalLines,
	}
	tr := &d.Truncation
	tr.Truncated, tr.TruncatedBy = true, output.ByBytes
	tr.TotalLines, tr.TotalBytes = idx.totalLines, idx.size
	q := shellQuote(path)
	how := fmt.Sprintf("Use bash to read: head -c %d %s", lim.maxBytes, q)
	if offset > 1 {
		how = fmt.Sprintf("Use bash: sed -n '%dp' %s | head -c %d", offset, q, lim.maxBytes)
	}
	text := fmt.Sprintf("[Line %d is %s, exceeds %s limit. %s]",
		pg.overLine, output.FormatSize(pg.overBytes), output.FormatSize(int64(lim.maxBytes)), how)
	return ReadResult{Text: text, Details: d}
}
