package files

import (
	"fmt"
	"strings"

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
	q := shellQuote(path)
	res := ReadResult{Content: string(pg.content)}

	switch {
	case total == 0 && offset == 1:
		res.Text = emptyFileText
	case offset > total:
		res.Text = fmt.Sprintf("[Offset %d is past the end of the file (%s)]", offset, plural(total, "line"))
	case pg.overLine > 0:
		tr.Truncated, tr.TruncatedBy = true, output.ByBytes
		res.Text = fmt.Sprintf("[Line %d is %s, over the %s limit. Use bash: sed -n '%dp' %s | head -c %d]",
			pg.overLine, output.FormatSize(pg.overBytes), output.FormatSize(int64(lim.maxBytes)), pg.overLine, q, lim.maxBytes)
	default:
		var notices []string
		if pg.linesCut == 1 {
			notices = append(notices, fmt.Sprintf("[Line %d cut at %d chars (line is %s). Use bash: sed -n '%dp' %s | head -c %d]",
				pg.firstCut, lim.maxLineChars, output.FormatSize(pg.firstCutBytes), pg.firstCut, q, lim.maxBytes))
		} else if pg.linesCut > 1 {
			notices = append(notices, fmt.Sprintf("[%d lines cut at %d chars, the first is line %d (%s). Use bash: sed -n '%dp' %s | head -c %d]",
				pg.linesCut, lim.maxLineChars, pg.firstCut, output.FormatSize(pg.firstCutBytes), pg.firstCut, q, lim.maxBytes))
		}
		if last < total {
			tr.Truncated = true
			limit := ""
			if pg.stop == stopBytes {
				tr.TruncatedBy = output.ByBytes
				limit = fmt.Sprintf(" (%s limit)", output.FormatSize(int64(lim.maxBytes)))
			} else {
				tr.TruncatedBy = output.ByLines
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

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
