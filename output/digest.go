package output

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// A digest is what a result shows of a cut stream whose cut lines are
// mostly of a few shapes (Options.Shapes): instead of as many of its
// first and last lines as the limits hold, the lines that tell something
// — the rare ones at its start (the head) and at its end (the tail), and
// between them the failure lines and the other rare lines, numbered —
// and one line for each shape that stands for the rest, with its count,
// its line range and the grep that lists its lines. It spends what the
// output is worth, not what the limits allow: a 40,000-line build log
// with one error is a few lines of it, the error and one line of shape.

// Shares of a stream's byte limit a digest's parts may take, at most.
const (
	digestHeadShare  = 0.10
	digestTailShare  = 0.20
	digestShapeShare = 0.20
)

// maxDigestEnd bounds the lines of a digest's head and of its tail.
const maxDigestEnd = 40

// maxDigestShapes bounds the shape lines of a digest.
const maxDigestShapes = 6

// minDigestBytes is the smallest byte limit a digest is made within:
// under it, a result shows head and tail.
const minDigestBytes = 2048

// maxShapeShown bounds the characters of a shape a shape line shows.
const maxShapeShown = 200

// maxFailuresOfShape bounds the failure lines of one frequent shape a
// digest numbers.
const maxFailuresOfShape = 2

// digestContext is how near a failure line a rare line is shown first.
const digestContext = 3

// A digest's middle: what it shows between its head and tail.
type digest struct {
	text    string // shape lines, numbered lines, what was left out
	lines   int64  // numbered lines shown
	bytes   int64  // their bytes
	greps   []Call // the grep of each shape shown
	summary int64  // lines the shape lines stand for
}

// A numbered line a digest shows between head and tail.
type digestLine struct {
	lineAt
	text string
	fail bool
}

// digestCut makes the digest of the window within maxBytes, when the
// stream allows one: it returns the view of the head and the tail, the
// middle, and the failure lines shown; ok is false when the result is
// made as usual (the stream is not kept whole, its cut lines are not
// mostly of a few shapes, or the budget is too small to say so).
func (p *Pipeline) digestCut(v view, maxBytes int) (view, *digest, failureList, bool) {
	if maxBytes < minDigestBytes || p.spillCapped || v.truncatedBy == ByTokens {
		return v, nil, failureList{}, false
	}
	p.spillShortfall()
	src, end, done := p.source()
	if src == nil {
		return v, nil, failureList{}, false
	}
	defer done()
	from := p.bytes - p.winBytes
	if p.shapes == nil || p.shapes.from != from || p.shapes.end != end {
		p.shapes = scanShapes(src, from, end)
	}
	x := p.shapes
	if x.lines != v.totalLines || !x.mostlyShaped() {
		return v, nil, failureList{}, false
	}
	dv, ends, ok := p.digestEnds(v, x, maxBytes)
	if !ok {
		return v, nil, failureList{}, false
	}
	a, b := dv.headLines+1, dv.totalLines-dv.tailLines // the lines between

	// The failure lines between head and tail.
	if p.fails == nil {
		p.fails = newFailureIndex(p.opt.Limits.MaxLines+256, from)
	}
	p.fails.scan(src, end, p.closed)
	kept, failCount := p.fails.within(a, b)

	d := &digest{}
	var sb strings.Builder
	others := p.digestShapes(&sb, d, src, end, x, a, b, ends, maxBytes)
	budget := maxBytes - len(dv.head) - len(dv.tail) - sb.Len() - 256 // the counts below
	shown, rareShown := p.digestLines(src, end, x, kept, a, b, budget)
	fl := failureList{count: failCount}
	for _, l := range shown {
		fmt.Fprintf(&sb, "%d: %s\n", p.winBase+l.line, l.text)
		d.lines++
		d.bytes += int64(len(l.text)) + 1
		if l.fail {
			fl.shown = append(fl.shown, Failure{Line: p.winBase + l.line, Text: l.text})
		}
	}
	fl.more = failCount - int64(len(fl.shown))
	digestUnsaid(&sb, x, dv, ends, others, rareShown, fl.more)
	d.text = sb.String()
	return dv, d, fl, true
}

// digestEnds are what a digest's head and tail show: the lines of each
// end while they tell something new, and of those, the shapes shown and
// the blank lines.
type digestEnds struct {
	inHead, inTail map[uint64]bool
	blanks         int64
}

// digestEnds makes the view of a digest's head and tail within their
// shares of maxBytes; ok is false when they would show every line.
func (p *Pipeline) digestEnds(v view, x *shapeIndex, maxBytes int) (view, digestEnds, bool) {
	total := v.totalLines
	// The head runs while it tells something new: blank lines, rare
	// ones, and the first line of each frequent shape, up to the first
	// line of a shape it showed already. So does the tail, from the end.
	h := telling(x.first, total)
	t := telling(x.lastLines(), total-h)
	ends := digestEnds{inHead: map[uint64]bool{}, inTail: map[uint64]bool{}}
	dv := view{totalLines: total, truncatedBy: v.truncatedBy}
	dv.head, dv.headLines = headLines(p.win.head, h, int64(float64(maxBytes)*digestHeadShare))
	if dv.headLines == 0 && total > 0 {
		// Not even the first line fits the head's share: the first
		// line of the usual view is shown.
		dv.head, dv.headLines = headLines(p.win.head, 1, int64(len(v.head)))
	}
	dv.tail, dv.tailLines = tailLines(p.win.ring.bytes(), p.win.ringStart(), t, int64(float64(maxBytes)*digestTailShare))
	if dv.headLines+dv.tailLines >= total {
		return v, ends, false
	}
	for i, l := range x.first {
		if int64(i) >= dv.headLines {
			break
		}
		ends.inHead[l.shape] = l.kind == lineShape
		if l.kind == lineBlank {
			ends.blanks++
		}
	}
	for i, l := range x.lastLines() {
		if int64(i) >= dv.tailLines {
			break
		}
		ends.inTail[l.shape] = l.kind == lineShape
		if l.kind == lineBlank {
			ends.blanks++
		}
	}
	a, b := dv.headLines+1, total-dv.tailLines // the lines between
	dv.omittedLines = b - a + 1
	dv.omittedBytes = p.winBytes - int64(len(dv.head)) - int64(len(dv.tail))
	p.win.countCuts(&dv)
	return dv, ends, true
}

// shapesUnsaid are the lines and shapes between a digest's ends that its
// shape lines leave out.
type shapesUnsaid struct {
	lines, shapes int64
}

// digestShapes writes the shapes that stand for the most lines between a
// and b, as many as their share of maxBytes holds, in the order they
// first appear, and adds their greps and lines to d.
func (p *Pipeline) digestShapes(sb *strings.Builder, d *digest, src io.ReaderAt, end int64, x *shapeIndex, a, b int64, ends digestEnds, maxBytes int) shapesUnsaid {
	shapeBudget := int(float64(maxBytes) * digestShapeShare)
	type shapeLine struct {
		first int64
		text  string
	}
	var shapeLines []shapeLine
	var others shapesUnsaid
	used := 0
	for _, s := range x.shapesWithin(a, b, ends.inHead, ends.inTail) {
		if len(shapeLines) < maxDigestShapes {
			line, _ := readLine(src, s.stat.off, end, maxShapeLine)
			text := shapeText([]byte(line))
			if len(text) > maxShapeShown {
				text = string(utf8Prefix([]byte(text), maxShapeShown)) + "..."
			}
			grep := Call{"tool": "grep", "pattern": shapePattern([]byte(line)), "path": p.spillPath()}
			l := fmt.Sprintf("[... %s %s like %q (lines %s–%s); grep it with %s ...]\n",
				commas(s.count), Noun(s.count, "line", "lines"), text, commas(p.winBase+s.first), commas(p.winBase+s.last), grep.Words(true))
			if used+len(l) <= shapeBudget {
				used += len(l)
				shapeLines = append(shapeLines, shapeLine{s.first, l})
				d.greps = append(d.greps, grep)
				d.summary += s.count
				continue
			}
		}
		others.lines += s.count
		others.shapes++
	}
	sort.Slice(shapeLines, func(i, j int) bool { return shapeLines[i].first < shapeLines[j].first })
	for _, l := range shapeLines {
		sb.WriteString(l.text)
	}
	return others
}

// digestLines chooses the numbered lines between a and b: failure lines
// first, then the rare lines near them, then the other rare lines, as
// many as budget holds, in line order; rareShown counts those that are
// of no frequent shape.
func (p *Pipeline) digestLines(src io.ReaderAt, end int64, x *shapeIndex, kept []lineAt, a, b int64, budget int) (shown []digestLine, rareShown int64) {
	maxChars := min(maxFailureChars, max(p.opt.Limits.MaxLineChars, 1))
	if p.opt.Limits.MaxLineChars == 0 {
		maxChars = maxFailureChars
	}
	// Of a flood of failure lines of one shape, the first few stand
	// for the rest beside their shape's line.
	var cands []digestLine
	perShape := map[uint64]int{}
	for _, f := range kept {
		full, _ := readLine(src, f.off, end, maxShapeLine)
		if h, ok := shapeHash([]byte(full)); ok && x.shapeOf([]byte(full), true) != nil {
			if perShape[h] >= maxFailuresOfShape {
				continue
			}
			perShape[h]++
		}
		cands = append(cands, digestLine{lineAt: f, fail: true})
	}
	near := func(n int64) bool {
		i := sort.Search(len(kept), func(i int) bool { return kept[i].line >= n-digestContext })
		return i < len(kept) && kept[i].line <= n+digestContext
	}
	var rest []digestLine
	for _, l := range x.rareLines() {
		if l.line < a || l.line > b {
			continue
		}
		if near(l.line) {
			cands = append(cands, digestLine{lineAt: l})
		} else {
			rest = append(rest, digestLine{lineAt: l})
		}
	}
	cands = append(cands, rest...)
	chosen := map[int64]bool{}
	used := 0
	for _, c := range cands {
		if chosen[c.line] {
			continue
		}
		text, _ := readLine(src, c.off, end, maxChars)
		size := len(strconv.FormatInt(p.winBase+c.line, 10)) + 3 + len(text)
		if used+size > budget {
			continue
		}
		chosen[c.line] = true
		c.text = text
		shown = append(shown, c)
		used += size
		if !c.fail {
			rareShown++
		} else if full, _ := readLine(src, c.off, end, maxShapeLine); x.shapeOf([]byte(full), true) == nil {
			rareShown++ // a failure line of no frequent shape
		}
	}
	sort.Slice(shown, func(i, j int) bool { return shown[i].line < shown[j].line })
	return shown, rareShown
}

// digestUnsaid writes what is left unsaid: the lines of shapes not
// listed, the rare lines not numbered, the blank lines, the failure
// lines not shown.
func digestUnsaid(sb *strings.Builder, x *shapeIndex, dv view, ends digestEnds, others shapesUnsaid, rareShown, failsMore int64) {
	var endRare int64
	for i, l := range x.first {
		if int64(i) < dv.headLines && l.kind == lineRare {
			endRare++
		}
	}
	for i, l := range x.lastLines() {
		if int64(i) < dv.tailLines && l.kind == lineRare {
			endRare++
		}
	}
	var parts []string
	if others.shapes > 0 {
		parts = append(parts, fmt.Sprintf("%s %s of %s more %s", commas(others.lines), Noun(others.lines, "line", "lines"), commas(others.shapes), Noun(others.shapes, "shape", "shapes")))
	}
	if n := x.rare - endRare - rareShown; n > 0 {
		parts = append(parts, commas(n)+" "+Noun(n, "other line", "other lines"))
	}
	if n := x.blank - ends.blanks; n > 0 {
		parts = append(parts, commas(n)+" "+Noun(n, "blank line", "blank lines"))
	}
	if failsMore > 0 {
		parts = append(parts, fmt.Sprintf("%s more %s like failures", commas(failsMore), Noun(failsMore, "looks", "look")))
	}
	if len(parts) > 0 {
		fmt.Fprintf(sb, "[... and %s ...]\n", strings.Join(parts, "; "))
	}
}

// mostlyShaped reports whether most lines of the window are of the
// shapes a digest would show.
func (x *shapeIndex) mostlyShaped() bool {
	var counts []int64
	for _, s := range x.shapes {
		if s.frequent {
			counts = append(counts, s.count)
		}
	}
	sort.Slice(counts, func(i, j int) bool { return counts[i] > counts[j] })
	var n int64
	for i, c := range counts {
		if i == maxDigestShapes {
			break
		}
		n += c
	}
	return n*2 >= x.lines
}

// A shapeRange is a shape's lines between a digest's head and tail.
type shapeRange struct {
	stat               *shapeStat
	count, first, last int64
}

// shapesWithin returns the frequent shapes with lines from a to b, most
// lines first; a shape's count leaves out its line the head shows
// (inHead) and its line the tail shows (inTail): a digest's head and
// tail show at most one line of each shape, its first and its last.
func (x *shapeIndex) shapesWithin(a, b int64, inHead, inTail map[uint64]bool) []shapeRange {
	var out []shapeRange
	for h, s := range x.shapes {
		if !s.frequent {
			continue
		}
		r := shapeRange{stat: s, count: s.count, first: s.first, last: s.last}
		if inHead[h] {
			r.count--
			r.first = s.second
		}
		if inTail[h] {
			r.count--
			r.last = s.penult
		}
		if r.count <= 0 || r.first > b || r.last < a {
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].count > out[j].count || out[i].count == out[j].count && out[i].first < out[j].first
	})
	return out
}

// spillPath is the path of the spill file, "" before there is one.
func (p *Pipeline) spillPath() string {
	if p.spill == nil {
		return ""
	}
	return p.spill.Path()
}

// commas renders n with a comma every three digits: 38,368.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// digestNotice says what a digest shows of the window: its head, its
// tail, how many lines between them it numbers, and that shapes stand
// for the rest.
func (r Result) digestNotice(b *strings.Builder) {
	span := func(from, to int64) string {
		if from == to {
			return "line " + strconv.FormatInt(from, 10)
		}
		return fmt.Sprintf("lines %d-%d", from, to)
	}
	b.WriteString("showing ")
	if r.HeadLines > 0 {
		b.WriteString(span(r.FirstLine, r.FirstLine+r.HeadLines-1))
	}
	if r.HeadLines > 0 && r.TailLines > 0 {
		b.WriteString(" and ")
	}
	if r.TailLines > 0 {
		b.WriteString(span(r.LastLine-r.TailLines+1, r.LastLine))
	}
	if r.FirstLine > 1 {
		fmt.Fprintf(b, " of the new lines %d-%d", r.FirstLine, r.LastLine)
	} else {
		fmt.Fprintf(b, " of %d", r.LastLine)
	}
	if n := r.digest.lines; n > 0 {
		fmt.Fprintf(b, ", %s between them numbered", Plural(n, "line", "lines"))
	}
	b.WriteString("; the rest by shape above")
}

// telling counts the lines of an end of the window a digest shows: from
// the end (lines, in order from it), the blank and the rare lines and
// the first line of each frequent shape, up to a line of a shape shown
// already, at most maxDigestEnd and n; at least one.
func telling(lines []lineInfo, n int64) int64 {
	seen := map[uint64]bool{}
	k := int64(0)
	for _, l := range lines {
		if k >= n || k >= maxDigestEnd {
			break
		}
		if l.kind == lineShape {
			if seen[l.shape] {
				break
			}
			seen[l.shape] = true
		}
		k++
	}
	return max(k, min(1, n))
}
