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
		prefix := buf[:r.Start-wo]
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
		before := int64(bytes.Count(prefix[ctxStart:], []byte{'\n'}))
		suffix := buf[r.End-wo:]
		need := 4
		if r.End > r.Start && buf[r.End-wo-1] == '\n' {
			need = 3
		}
		end, nl := 0, 0
		for end < len(suffix) && nl < need {
			if suffix[end] == '\n' {
				nl++
			}
			end++
		}
		oldText := buf[ctxStart : int(r.End-wo)+end]
		newText := append(append(append([]byte{}, prefix[ctxStart:]...), st.New...), suffix[:end]...)
		var d bytes.Buffer
		stats, _ := difflines.Unified(&d, bytes.NewReader(oldText), bytes.NewReader(newText), "a/"+display, "b/"+display)
		added += stats.Added
		removed += stats.Removed
		if i >= maxRegionHunks {
			continue
		}
		first := int64(st.Lines[i]) - before
		for _, l := range bytes.SplitAfter(d.Bytes(), []byte{'\n'}) {
			switch {
			case bytes.HasPrefix(l, []byte("--- ")) || bytes.HasPrefix(l, []byte("+++ ")):
				if headed {
					continue
				}
				if bytes.HasPrefix(l, []byte("+++ ")) {
					headed = true
				}
			case bytes.HasPrefix(l, []byte("@@ ")):
				m := hunkHeader.FindSubmatch(l)
				if m != nil {
					a, _ := strconv.ParseInt(string(m[1]), 10, 64)
					c, _ := strconv.ParseInt(string(m[3]), 10, 64)
					l = fmt.Appendf(nil, "@@ -%d%s +%d%s @@\n", a+first-1, m[2], c+first-1+shift, m[4])
				}
			}
			w.Write(l)
		}
		shift += stats.Added - stats.Removed
	}
	if len(st.Ranges) > maxRegionHunks {
		fmt.Fprintf(w, "[%d more replacements not shown]\n", len(st.Ranges)-maxRegionHunks)
	}
	return added, removed
}
