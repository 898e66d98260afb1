package filechange

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"github.com/spillway-dev/spillway/internal/difflines"
	"github.com/spillway-dev/spillway/internal/textedit"
)

// regionWindow bounds the bytes read around a replaced range for its
// diff: context lines longer than that are cut.
const regionWindow = 64 << 10

// maxRegionHunks bounds the hunks written for a streamed edit.
const maxRegionHunks = 1000

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@`)

// regionDiff writes the unified diff of a streamed edit from the old
// file and the replaced ranges, reading only around each range, and
// returns the lines added and removed.
func regionDiff(w io.Writer, old io.ReaderAt, size int64, st textedit.Step, display string) (added, removed int64) {
	headed := false
	var shift int64 // lines the hunks before added, net
	for i, r := range st.Ranges {
		wo := max(0, r.Start-regionWindow)
		we := min(size, r.End+regionWindow)
		buf := make([]byte, we-wo)
		n, _ := old.ReadAt(buf, wo)
		buf = buf[:n]
		if int64(len(buf)) < r.End-wo {
			return added, removed
		}
		oldText, newText, before := regionTexts(buf, r.Start-wo, r.End-wo, st.New)
		var d bytes.Buffer
		stats, _ := difflines.Unified(&d, bytes.NewReader(oldText), bytes.NewReader(newText), "a/"+display, "b/"+display)
		added += stats.Added
		removed += stats.Removed
		if i >= maxRegionHunks {
			continue
		}
		first := int64(st.Lines[i]) - before
		headed = writeShifted(w, d.Bytes(), first-1, shift, headed)
		shift += stats.Added - stats.Removed
	}
	if len(st.Ranges) > maxRegionHunks {
		fmt.Fprintf(w, "[%d more replacements not shown]\n", len(st.Ranges)-maxRegionHunks)
	}
	return added, removed
}

// regionTexts cuts, from buf, the replaced range [start, end) with up to
// three lines of context on each side (the lines it begins and ends in
// beside them), as it was and as the edit makes it; before counts the
// line ends of the context before the range.
func regionTexts(buf []byte, start, end int64, repl []byte) (oldText, newText []byte, before int64) {
	prefix := buf[:start]
	pos, nl := len(prefix), 0
	for pos > 0 {
		if prefix[pos-1] == '\n' {
			nl++
			if nl == 4 {
				break
			}
		}
		pos--
	}
	ctxStart := pos
	before = int64(bytes.Count(prefix[ctxStart:], []byte{'\n'}))
	suffix := buf[end:]
	need := 4
	if end > start && buf[end-1] == '\n' {
		need = 3
	}
	stop := 0
	for nl = 0; stop < len(suffix) && nl < need; stop++ {
		if suffix[stop] == '\n' {
			nl++
		}
	}
	oldText = buf[ctxStart : int(end)+stop]
	newText = append(append(append([]byte{}, prefix[ctxStart:]...), repl...), suffix[:stop]...)
	return oldText, newText, before
}

// writeShifted writes a region's diff to w with its hunk headers moved
// from the region's lines to the file's: by offset lines in the old file,
// and by offset+shift in the new one. The file names are written once,
// before the first hunk; it returns whether they have been.
func writeShifted(w io.Writer, diff []byte, offset, shift int64, headed bool) bool {
	for _, l := range bytes.SplitAfter(diff, []byte{'\n'}) {
		switch {
		case bytes.HasPrefix(l, []byte("--- ")) || bytes.HasPrefix(l, []byte("+++ ")):
			if headed {
				continue
			}
			if bytes.HasPrefix(l, []byte("+++ ")) {
				headed = true
			}
		case bytes.HasPrefix(l, []byte("@@ ")):
			if m := hunkHeader.FindSubmatch(l); m != nil {
				a, _ := strconv.ParseInt(string(m[1]), 10, 64)
				c, _ := strconv.ParseInt(string(m[3]), 10, 64)
				l = fmt.Appendf(nil, "@@ -%d%s +%d%s @@\n", a+offset, m[2], c+offset+shift, m[4])
			}
		}
		w.Write(l)
	}
	return headed
}
