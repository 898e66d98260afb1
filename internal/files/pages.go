package files

import (
	"unicode/utf8"

	"github.com/spillway-dev/spillway/tool"
)

// textPage is the Page of lines pg collected from line offset on.
func textPage(path, mime string, offset int64, lim tool.ReadPolicy, pg *page, idx *lineIndex) Page {
	return Page{
		Path: path, Mime: mime, Size: idx.size, TotalLines: idx.totalLines, Line: offset,
		Text: string(pg.text), Content: string(pg.content),
		Shown: pg.shown, Stop: pg.stop,
		LinesCut: pg.linesCut, FirstCut: pg.firstCut, FirstCutBytes: pg.firstCutBytes,
		Policy: lim,
	}
}

// charsPage is the Page of part of the line at offset, from its character
// charOffset on: the characters cp collected, with the line's ending when
// they reach it.
func charsPage(path, mime string, offset, charOffset int64, lim tool.ReadPolicy, cp *charPage, idx *lineIndex) Page {
	content := string(cp.text) + cp.ending()
	return Page{
		Path: path, Mime: mime, Size: idx.size, TotalLines: idx.totalLines, Line: offset,
		Text: content, Content: content, Shown: 1,
		Part: &LinePart{
			From: charOffset, Chars: int64(utf8.RuneCount(cp.text)), Skipped: cp.skipped,
			LineBytes: cp.raw, More: cp.more, ByTokens: cp.byTokens,
		},
		Policy: lim,
	}
}

// overLinePage is the Page of a read whose first line alone is over the
// byte limit, for a policy that never shows part of a line
// (docs/profiles.md, pi): no line, only the line's number and size.
func overLinePage(path, mime string, offset int64, lim tool.ReadPolicy, pg *page, idx *lineIndex) Page {
	return Page{
		Path: path, Mime: mime, Size: idx.size, TotalLines: idx.totalLines, Line: offset,
		Stop:   StopBytes,
		Over:   &LongLine{Line: pg.overLine, Bytes: pg.overBytes},
		Policy: lim,
	}
}
