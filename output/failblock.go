package output

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Failure is a line that looks like a failure (see IsFailureLine),
// among the lines a result cut: its number in the whole stream and its
// text (cut when long).
type Failure struct {
	Line int64  `json:"line"`
	Text string `json:"text"`
}

// FailureShare is the share of a stream's byte limit that the failure
// lines of its cut part may take in a result: 20%, so that the head and
// the tail keep most of it.
const FailureShare = 0.2

// failureContext is how many lines around each failure line are shown
// when the share holds them.
const failureContext = 2

// maxFailureChars bounds the characters of a failure line shown.
const maxFailureChars = 500

// maxFailureShown bounds the failure lines read back for one result.
const maxFailureShown = 1000

// A failureList is what a result shows of the failure lines of its cut
// part: the block of numbered lines, the failure lines in it, and how
// many failure lines the part holds in all.
type failureList struct {
	block  string
	shown  []Failure
	count  int64
	resume int64 // the first line shown after the cut part; 0 for none
	more   int64 // failure lines of the cut part not in block
}

// A numbered line of a failure block: a failure line or context.
type numberedLine struct {
	n    int64
	text string
	fail bool
}

// listFailures reads the failure lines kept (stream offsets, window line
// numbers plus base) back from r, which holds the stream up to end, and
// renders them within budget bytes: with context lines from lines a to b
// when the budget holds them, else without, and as many as fit.
func listFailures(r io.ReaderAt, end int64, kept []failureAt, count, base, a, b int64, budget, maxChars int) failureList {
	kept = kept[:min(len(kept), maxFailureShown)]
	if maxChars <= 0 || maxChars > maxFailureChars {
		maxChars = maxFailureChars
	}
	l := failureList{count: count}
	for _, ctx := range []int64{failureContext, 0} {
		lines := numberLines(r, end, kept, a, b, ctx, maxChars)
		block, n := renderNumbered(lines, base, budget, ctx > 0)
		if n == len(kept) || ctx == 0 {
			l.block = block
			for _, ln := range lines {
				if ln.fail && int64(len(l.shown)) < int64(n) {
					l.shown = append(l.shown, Failure{Line: base + ln.n, Text: ln.text})
				}
			}
			break
		}
	}
	l.more = count - int64(len(l.shown))
	return l
}

// numberLines reads each failure line, and ctx lines before and after it
// within lines a to b, in order and without repeats.
func numberLines(r io.ReaderAt, end int64, kept []failureAt, a, b, ctx int64, maxChars int) []numberedLine {
	var out []numberedLine
	fail := make(map[int64]bool, len(kept))
	for _, f := range kept {
		fail[f.line] = true
	}
	put := func(n int64, text string) {
		if len(out) > 0 && out[len(out)-1].n >= n {
			return
		}
		out = append(out, numberedLine{n, text, fail[n]})
	}
	for _, f := range kept {
		if ctx > 0 {
			before := linesBefore(r, f.off, min(ctx, f.line-a), maxChars)
			for i, t := range before {
				put(f.line-int64(len(before)-i), t)
			}
		}
		text, next := readLine(r, f.off, end, maxChars)
		put(f.line, text)
		for i := int64(1); i <= ctx && f.line+i <= b && next < end; i++ {
			text, next = readLine(r, next, end, maxChars)
			put(f.line+i, text)
		}
	}
	return out
}

// renderNumbered renders lines as grep -n does (a failure line "N: text",
// context "N- text", and with gaps "--" between runs that do not
// touch), as many as
// fit budget bytes, and returns how many failure lines it holds.
func renderNumbered(lines []numberedLine, base int64, budget int, gaps bool) (string, int) {
	var b strings.Builder
	fails := 0
	for i, l := range lines {
		var s string
		if gaps && i > 0 && l.n > lines[i-1].n+1 {
			s = "--\n"
		}
		sep := "- "
		if l.fail {
			sep = ": "
		}
		s += strconv.FormatInt(base+l.n, 10) + sep + l.text + "\n"
		if b.Len()+len(s) > budget {
			break
		}
		b.WriteString(s)
		if l.fail {
			fails++
		}
	}
	return b.String(), fails
}

// readLine reads the line at off (without its '\n'), cut to maxChars
// characters, and returns the offset of the next line.
func readLine(r io.ReaderAt, off, end int64, maxChars int) (string, int64) {
	buf := make([]byte, min(int64(maxChars*utf8.UTFMax+1), end-off))
	n, _ := r.ReadAt(buf, off)
	buf = buf[:n]
	if k := bytes.IndexByte(buf, '\n'); k >= 0 {
		return cutChars(buf[:k], maxChars), off + int64(k) + 1
	}
	next := off + int64(n)
	if next < end { // a long line: find its end
		var chunk [4096]byte
		for next < end {
			m, _ := r.ReadAt(chunk[:min(int64(len(chunk)), end-next)], next)
			if m == 0 {
				next = end
				break
			}
			if k := bytes.IndexByte(chunk[:m], '\n'); k >= 0 {
				next += int64(k) + 1
				break
			}
			next += int64(m)
		}
		return cutChars(buf, maxChars) + " [...]", next
	}
	return cutChars(buf, maxChars), next
}

// linesBefore reads up to n whole lines that end just before off.
func linesBefore(r io.ReaderAt, off, n int64, maxChars int) []string {
	if n <= 0 || off == 0 {
		return nil
	}
	size := min(off, int64(4096))
	buf := make([]byte, size)
	k, _ := r.ReadAt(buf, off-size)
	buf = buf[:k]
	if len(buf) == 0 || buf[len(buf)-1] != '\n' {
		return nil
	}
	buf = buf[:len(buf)-1]
	var out []string
	for int64(len(out)) < n {
		i := bytes.LastIndexByte(buf, '\n')
		if i < 0 && size < off {
			break // the line may start before what was read
		}
		out = append([]string{cutChars(buf[i+1:], maxChars)}, out...)
		if i < 0 {
			break
		}
		buf = buf[:i]
	}
	return out
}

// cutChars returns b as a string, cut to max characters with " [...]".
func cutChars(b []byte, max int) string {
	if len(b) <= max {
		return string(bytes.ToValidUTF8(b, replacementChar))
	}
	n, i := 0, 0
	for i < len(b) && n < max {
		_, size := utf8.DecodeRune(b[i:])
		i += size
		n++
	}
	if i == len(b) {
		return string(b)
	}
	return string(bytes.ToValidUTF8(b[:i], replacementChar)) + " [...]"
}

// failureHeader is the line before the failure lines of a cut part.
func failureHeader(count int64, marker string) string {
	what := fmt.Sprintf("%d of them look like failures", count)
	if count == 1 {
		what = "1 of them looks like a failure"
	}
	return strings.TrimSuffix(marker, " ...]") + "; " + what + " (\"N:\" the line in the full output, \"N-\" context) ...]"
}

// failureFooter is the line after them: how many more, how to list them
// all, and where the output shown goes on.
func failureFooter(l failureList, path string) string {
	var parts []string
	if l.more > 0 {
		s := fmt.Sprintf("%d more %s like failures", l.more, Noun(l.more, "looks", "look"))
		if path != "" {
			s += ": " + failureGrep(path).Tool() + " " + failureGrep(path).Words(false) + " lists them all"
		}
		parts = append(parts, s)
	}
	if l.resume > 0 {
		parts = append(parts, fmt.Sprintf("the output goes on at line %d", l.resume))
	}
	if len(parts) == 0 {
		return ""
	}
	return "[... " + strings.Join(parts, "; ") + " ...]"
}

// failureGrep is the call that lists every failure line of a spill file.
func failureGrep(path string) Call {
	return Call{"tool": "grep", "pattern": failureGrepPattern, "path": path}
}

// countFailureLines counts the lines of text that look like failures.
func countFailureLines(text string) int64 {
	if !mayFail([]byte(text)) {
		return 0
	}
	var n int64
	for line := range strings.Lines(text) {
		if IsFailureLine([]byte(strings.TrimSuffix(line, "\n"))) {
			n++
		}
	}
	return n
}

// FailureSection is what a result shows in place of its omission marker
// when cut lines look like failures, for a stream shown again from where
// it is kept: r holds the stream, and the lines cut are first to last,
// at stream offsets from to to. It returns "" when none of them looks
// like a failure; else the marker saying so, the failure lines numbered
// (with context when budget holds it), how many more there are with the
// grep of path that lists them all, and the failure lines shown.
//
// A section before more lines shown says where they go on (line last+1);
// one at the end of what is shown (after a head) does not: give atEnd.
func FailureSection(r io.ReaderAt, from, to, first, last int64, marker string, budget, maxChars int, path string, atEnd bool) (string, []Failure) {
	x := newFailureIndex(maxFailureKeep, from)
	x.scan(r, to, true)
	n := last - first + 1
	kept, count := x.within(1, n)
	if count == 0 {
		return "", nil
	}
	l := listFailures(r, to, kept, count, first-1, 1, n, budget, maxChars)
	if !atEnd {
		l.resume = last + 1
	}
	res := Result{FailuresCut: count, fails: l, FullOutputPath: path}
	return res.failureText(marker), l.shown
}
