package spillway_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/output"
)

// The invariants of docs/notices.md, checked as properties: each tool is
// called on random inputs under random limits, and what its notice says
// is compared with what the result shows and with the truth, counted
// here by brute force.
//
//   - shown + omitted = total, in the details and in the words;
//   - "limit reached" only when that limit bound the result;
//   - the cause named (truncated_by, "(50.0KB limit)") is the one that
//     bound it;
//   - singular and plural are right;
//   - a result that leaves nothing out says nothing of cuts.

// propCases is how many random cases each tool gets.
const propCases = 25

// lineCount counts lines as the tools do: a last line without a newline
// is a line.
func lineCount(s string) int64 {
	n := int64(strings.Count(s, "\n"))
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

var (
	showingRe = regexp.MustCompile(`showing lines (?:(\d+)-(\d+))?(?: and )?(?:(\d+)-(\d+))? of (\d+)( \([0-9.]+[KMG]?B limit\))?( \(\d+ tokens limit\))?`)
	// The marker, which says how many of the omitted lines look like
	// failures when some do (docs/notices.md).
	omittedRe = regexp.MustCompile(`(?m)^\[\.\.\. (\d+) (lines?) \(([0-9.]+[KMG]?B)\) omitted(?:; \d+ of them (?:looks like a failure|look like failures) \(.*\))? \.\.\.\]$`)
	cutRe     = regexp.MustCompile(`(\d+) (lines?) cut at (\d+) chars`)
	limitRe   = regexp.MustCompile(`\[(\d+) (matches|match|results|result|entries|entry) limit reached`)
	ofShownRe = regexp.MustCompile(`limit reached: (\d+) of (\d+) (matches|match|results|result|entries|entry|lines|line) shown`)
)

// plural checks that noun agrees with n.
func plural(t *testing.T, what string, n int64, noun string) {
	t.Helper()
	if (n == 1) != !strings.HasSuffix(noun, "s") || (n == 1 && noun == "matches") {
		t.Errorf("%s: %d %s", what, n, noun)
	}
}

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// streamNotice returns the notice line of a bash stream, or "".
func streamNotice(text, label string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "["+label+": ") {
			return line
		}
	}
	return ""
}

// checkBashStream checks one stream of a bash result against its whole
// output and the limits it ran under.
func checkBashStream(t *testing.T, label, text, shown string, d spillway.StreamDetails, lim output.Limits, whole string) {
	t.Helper()
	tr := d.Truncation
	if tr.TotalLines != lineCount(whole) || tr.TotalBytes != int64(len(whole)) {
		t.Fatalf("%s: total %d lines %d bytes, the output has %d lines %d bytes", label, tr.TotalLines, tr.TotalBytes, lineCount(whole), len(whole))
	}
	fits := tr.TotalLines <= int64(lim.MaxLines) && tr.TotalBytes <= int64(lim.MaxBytes) &&
		(lim.MaxTokens == 0 || output.EstimateTokens([]byte(whole)) <= lim.MaxTokens)
	switch tr.TruncatedBy {
	case "":
		if tr.Truncated || shown != whole {
			t.Fatalf("%s: nothing said cut, but %d of %d bytes shown", label, len(shown), len(whole))
		}
	case output.ByLines:
		if tr.TotalLines <= int64(lim.MaxLines) {
			t.Fatalf("%s: cut by lines, but %d lines fit the limit %d", label, tr.TotalLines, lim.MaxLines)
		}
	case output.ByBytes:
		if tr.TotalBytes <= int64(lim.MaxBytes) {
			t.Fatalf("%s: cut by bytes, but %d bytes fit the limit %d", label, tr.TotalBytes, lim.MaxBytes)
		}
	case output.ByTokens:
		if lim.MaxTokens == 0 || int64(output.EstimateTokens([]byte(whole))) <= int64(lim.MaxTokens) {
			t.Fatalf("%s: cut by tokens, but the limit is %d and the output is %d tokens", label, lim.MaxTokens, output.EstimateTokens([]byte(whole)))
		}
	case output.ByLineChars:
		// The byte limit counts what is shown: lines cut at the cap
		// may make an output fit that would not fit whole.
		if tr.OutputLines != tr.TotalLines || tr.LinesCut == 0 {
			t.Fatalf("%s: cut by line_chars only, but %d of %d lines shown, lines_cut %d", label, tr.OutputLines, tr.TotalLines, tr.LinesCut)
		}
	default:
		t.Fatalf("%s: truncated_by %q", label, tr.TruncatedBy)
	}
	if fits && tr.TruncatedBy != "" && tr.TruncatedBy != output.ByLineChars {
		t.Fatalf("%s: the output fits its limits but is said cut by %s", label, tr.TruncatedBy)
	}
	if tr.TotalLines > int64(lim.MaxLines) && !tr.Truncated {
		t.Fatalf("%s: %d lines %d bytes exceed the limits %d/%d, but nothing is said cut", label, tr.TotalLines, tr.TotalBytes, lim.MaxLines, lim.MaxBytes)
	}
	if tr.LinesCut > 0 && lim.MaxLineChars == 0 {
		t.Fatalf("%s: %d lines cut with no line cap", label, tr.LinesCut)
	}

	notice := streamNotice(text, label)
	if !tr.Truncated {
		if notice != "" {
			t.Fatalf("%s: nothing cut, yet %q", label, notice)
		}
		return
	}
	if notice == "" {
		t.Fatalf("%s: cut (%s) without a notice:\n%s", label, tr.TruncatedBy, text[max(0, len(text)-500):])
	}
	// Lines cut: said with their number, in the right number.
	if m := cutRe.FindStringSubmatch(notice); m != nil {
		if atoi(m[1]) != tr.LinesCut || atoi(m[3]) != int64(lim.MaxLineChars) {
			t.Fatalf("%s: %q, details lines_cut %d, cap %d", label, m[0], tr.LinesCut, lim.MaxLineChars)
		}
		plural(t, label+" lines cut", atoi(m[1]), m[2])
	} else if tr.LinesCut > 0 {
		t.Fatalf("%s: %d lines cut, not said: %q", label, tr.LinesCut, notice)
	}
	if tr.FirstLinePartial || tr.LastLinePartial || tr.TruncatedBy == output.ByLineChars {
		return
	}
	// Whole lines left out: "showing lines A-B and C-D of N".
	m := showingRe.FindStringSubmatch(notice)
	if m == nil {
		t.Fatalf("%s: cut by %s, but the notice does not say which lines show: %q", label, tr.TruncatedBy, notice)
	}
	var head, tail int64
	switch {
	case m[1] != "" && m[3] != "":
		head, tail = atoi(m[2])-atoi(m[1])+1, atoi(m[4])-atoi(m[3])+1
		if atoi(m[1]) != 1 || atoi(m[4]) != tr.TotalLines {
			t.Fatalf("%s: head and tail are not the ends of the output: %q", label, notice)
		}
	case m[1] != "" && atoi(m[1]) == 1 && lim.Strategy != output.Tail:
		head = atoi(m[2])
	case m[1] != "" && atoi(m[2]) == tr.TotalLines && lim.Strategy != output.Head:
		tail = atoi(m[2]) - atoi(m[1]) + 1
	default:
		t.Fatalf("%s: under %s, the lines shown are not an end of the output: %q", label, lim.Strategy, notice)
	}
	shownLines := head + tail
	if atoi(m[5]) != tr.TotalLines || shownLines != tr.OutputLines {
		t.Fatalf("%s: %q, details %d of %d lines shown", label, m[0], tr.OutputLines, tr.TotalLines)
	}
	if (m[6] != "") != (tr.TruncatedBy == output.ByBytes) {
		t.Fatalf("%s: cut by %s, notice %q", label, tr.TruncatedBy, notice)
	}
	if (m[6] != "") && !strings.Contains(m[6], output.FormatSize(int64(lim.MaxBytes))) {
		t.Fatalf("%s: the byte limit is %d, notice %q", label, lim.MaxBytes, m[6])
	}
	if (m[7] != "") != (tr.TruncatedBy == output.ByTokens) || m[7] != "" && !strings.Contains(m[7], fmt.Sprintf("(%d tokens limit)", lim.MaxTokens)) {
		t.Fatalf("%s: cut by %s under a %d tokens limit, notice %q", label, tr.TruncatedBy, lim.MaxTokens, notice)
	}
	// The omitted middle: the marker's count closes the sum.
	if head > 0 && tail > 0 {
		om := omittedRe.FindStringSubmatch(shown)
		if om == nil {
			t.Fatalf("%s: head and tail shown with no omission marker", label)
		}
		if head+atoi(om[1])+tail != tr.TotalLines {
			t.Fatalf("%s: %d shown + %s omitted + %d shown != %d", label, head, om[1], tail, tr.TotalLines)
		}
		plural(t, label+" omitted", atoi(om[1]), om[2])
	}
}

// randomLimits draws stream limits, from tight to loose.
func randomLimits(r *rand.Rand) output.Limits {
	return output.Limits{
		Strategy:     []output.Strategy{output.Head, output.Tail, output.HeadTail}[r.IntN(3)],
		HeadShare:    float64(r.IntN(11)) / 10,
		MaxLines:     1 + r.IntN([]int{5, 100, 3000}[r.IntN(3)]),
		MaxBytes:     1 + r.IntN([]int{200, 10_000, 200_000}[r.IntN(3)]),
		MaxLineChars: r.IntN([]int{1, 100, 3000}[r.IntN(3)]),
		MaxTokens:    r.IntN(2) * r.IntN([]int{50, 5000, 100_000}[r.IntN(3)]),
	}
}

func TestNoticePropertiesBash(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	dir := t.TempDir()
	for i := range propCases {
		p := mustPolicy(t, "default")
		p.Bash.Stdout, p.Bash.Stderr = randomLimits(r), randomLimits(r)
		p.ResultBudget = 0
		out, errOut := randomOutput(r, r.IntN(4000)), randomOutput(r, r.IntN(50))
		if r.IntN(4) == 0 {
			out = strings.TrimSuffix(out, "\n") // a last line with no newline
		}
		os.WriteFile(filepath.Join(dir, "out"), []byte(out), 0o644)
		os.WriteFile(filepath.Join(dir, "err"), []byte(errOut), 0o644)
		ts := followToolset(t, p)
		res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "cat out; cat err >&2", Cwd: dir})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			checkBashStream(t, "stdout", res.Text, res.Content, res.Details.Stdout, p.Bash.Stdout, out)
			checkBashStream(t, "stderr", res.Text, res.Details.Stderr.Shown, res.Details.Stderr, p.Bash.Stderr, errOut)
		})
	}
}

// TestNoticePropertiesRead: a page says which lines it shows of how
// many, and a cut line how much of it.
func TestNoticePropertiesRead(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 14))
	dir := t.TempDir()
	pageRe := regexp.MustCompile(`\[Showing lines (\d+)-(\d+) of (\d+)`)
	for i := range propCases {
		p := mustPolicy(t, "default")
		p.Read.MaxLines = 1 + r.IntN(3000)
		p.Read.MaxBytes = 1 + r.IntN([]int{500, 20_000, 200_000}[r.IntN(3)])
		p.Read.MaxLineChars = 1 + r.IntN([]int{50, 3000}[r.IntN(2)])
		p.ResultBudget = 0
		data := randomOutput(r, 1+r.IntN(5000))
		path := filepath.Join(dir, fmt.Sprintf("f%d.txt", i))
		os.WriteFile(path, []byte(data), 0o644)
		total := lineCount(data)
		in := spillway.ReadInput{Path: path, Offset: 1 + r.IntN(int(total)), Limit: r.IntN(2) * (1 + r.IntN(3000))}
		ts := followToolset(t, p)
		res, err := ts.Read(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			d := res.Details
			lines := strings.Split(data, "\n")[in.Offset-1:]
			if d.TotalLines != total || d.Offset != int64(in.Offset) {
				t.Fatalf("details total %d offset %d, file %d lines, offset %d", d.TotalLines, d.Offset, total, in.Offset)
			}
			if got := lineCount(res.Content); got != d.LinesShown {
				t.Fatalf("lines_shown %d, content has %d", d.LinesShown, got)
			}
			last := d.Offset + d.LinesShown - 1
			// The page is the file's lines, each whole or cut at the cap.
			cut := int64(0)
			if d.Truncation.FirstLinePartial {
				// One line too long for the byte limit, shown from its
				// start: the notice says which characters.
				m := regexp.MustCompile(`\[Line (\d+), characters 1-(\d+) of `).FindStringSubmatch(res.Text)
				if d.LinesShown != 1 || m == nil || atoi(m[1]) != d.Offset || atoi(m[2]) != int64(utf8.RuneCountInString(res.Content)) || !strings.HasPrefix(lines[0], res.Content) {
					t.Fatalf("a partial line: %v, %d characters shown, %q", m, utf8.RuneCountInString(res.Content), res.Text[max(0, len(res.Text)-300):])
				}
				return
			}
			for k, line := range strings.Split(strings.TrimSuffix(res.Content, "\n"), "\n") {
				if line != lines[k] {
					if !strings.HasPrefix(lines[k], line) || d.LinesShown > 1 && len([]rune(line)) != p.Read.MaxLineChars {
						t.Fatalf("line %d shown as %.80q, is %.80q", d.Offset+int64(k), line, lines[k])
					}
					cut++
				}
			}
			if cut != d.LinesCut {
				t.Fatalf("%d lines shown cut, lines_cut %d; limits %d lines %d bytes %d chars; %+v\n%s", cut, d.LinesCut, p.Read.MaxLines, p.Read.MaxBytes, p.Read.MaxLineChars, d, res.Text[max(0, len(res.Text)-300):])
			}
			more := last < total
			if m := pageRe.FindStringSubmatch(res.Text); m != nil {
				if atoi(m[1]) != d.Offset || atoi(m[2]) != last || atoi(m[3]) != total {
					t.Fatalf("%q: details offset %d, last %d, total %d", m[0], d.Offset, last, total)
				}
				if !more {
					t.Fatalf("%q, but the page reaches the end", m[0])
				}
			} else if more && d.LinesCut == 0 {
				t.Fatalf("lines %d-%d of %d shown, no notice says so: %q", d.Offset, last, total, res.Text[max(0, len(res.Text)-300):])
			}
			if m := cutRe.FindStringSubmatch(res.Text); m != nil {
				plural(t, "read lines cut", atoi(m[1]), m[2])
			}
			if (more || d.LinesCut > 0) != (len(d.Next) > 0) {
				t.Fatalf("more=%v lines_cut=%d, next %v", more, d.LinesCut, d.Next)
			}
		})
	}
}

// searchTree makes a tree of files named and filled at random: some
// lines match "needle", some long.
func searchTree(t *testing.T, r *rand.Rand) (dir string, files int, matches map[string]int) {
	t.Helper()
	dir = t.TempDir()
	matches = map[string]int{}
	files = 1 + r.IntN([]int{3, 60, 600}[r.IntN(3)])
	for i := range files {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", i%7))
		os.MkdirAll(sub, 0o755)
		var b strings.Builder
		n := r.IntN([]int{3, 40, 400}[r.IntN(3)])
		for j := range n {
			switch r.IntN(6) {
			case 0:
				b.WriteString(strings.Repeat("x", r.IntN(4000)) + " needle " + strings.Repeat("y", r.IntN(100)))
				matches[sub]++
			case 1:
				fmt.Fprintf(&b, "needle %d", j)
				matches[sub]++
			default:
				fmt.Fprintf(&b, "hay %d", j)
			}
			b.WriteByte('\n')
		}
		os.WriteFile(filepath.Join(sub, fmt.Sprintf("file-%04d-%s.txt", i, strings.Repeat("n", r.IntN(60)))), []byte(b.String()), 0o644)
	}
	return dir, files, matches
}

// cutByView says a listing was cut by its byte or token limit, which
// both cut the lines shown and say "K of M shown".
func cutByView(tr output.Truncation) bool {
	return tr.TruncatedBy == output.ByBytes || tr.TruncatedBy == output.ByTokens
}

// checkCounted checks the notices of a result limit and a byte limit:
// "[N <noun> limit reached" only when more than N exist, and "K of M
// <noun> shown" with K shown and M what the full result holds.
func checkCounted(t *testing.T, text string, limit, shown, exist int, limitReached, bytesCut bool, spill string) {
	t.Helper()
	m := limitRe.FindStringSubmatch(text)
	if (m != nil) != (exist > limit) || limitReached != (exist > limit) {
		t.Fatalf("limit %d, %d exist, limit_reached %v, notice %v", limit, exist, limitReached, m)
	}
	if m != nil {
		if atoi(m[1]) != int64(limit) {
			t.Fatalf("%q, the limit is %d", m[0], limit)
		}
		plural(t, "limit", atoi(m[1]), m[2])
	}
	o := ofShownRe.FindStringSubmatch(text)
	if (o != nil) != bytesCut {
		t.Fatalf("cut by bytes %v, notice %v: %q", bytesCut, o, text[max(0, len(text)-400):])
	}
	if o != nil {
		if atoi(o[1]) != int64(shown) || atoi(o[2]) != int64(min(exist, limit)) {
			t.Fatalf("%q: %d shown of %d within the limit", o[0], shown, min(exist, limit))
		}
		plural(t, "of shown", atoi(o[2]), o[3])
		if spill == "" || !strings.Contains(text, "Full output: "+spill) {
			t.Fatalf("a byte cut names no spill file: %q", text[max(0, len(text)-400):])
		}
		data, err := os.ReadFile(spill)
		if err != nil || lineCount(string(data)) != int64(min(exist, limit)) {
			t.Fatalf("the spill file holds %d lines (%v), want %d", lineCount(string(data)), err, min(exist, limit))
		}
	}
}

func TestNoticePropertiesGrep(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(15, 16))
	for i := range propCases {
		dir, _, matches := searchTree(t, r)
		total := 0
		for _, n := range matches {
			total += n
		}
		p := mustPolicy(t, "default")
		p.Grep.MaxBytes = 1 + r.IntN([]int{300, 20_000, 200_000}[r.IntN(3)])
		p.Grep.MaxTokens = r.IntN(2) * r.IntN([]int{100, 5000}[r.IntN(2)])
		p.ResultBudget = 0
		ts := followToolset(t, p)
		limit := 1 + r.IntN([]int{3, 100, 3000}[r.IntN(3)])
		res, err := ts.Grep(context.Background(), spillway.GrepInput{Pattern: "needle", Path: dir, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			d := res.Details
			if d.MatchCount != min(total, limit) {
				t.Fatalf("match_count %d, %d matches within the limit %d", d.MatchCount, total, limit)
			}
			shown := int(lineCount(res.Content))
			if total == 0 {
				shown = 0
			}
			if !d.Truncation.Truncated && shown != d.MatchCount {
				t.Fatalf("nothing cut, %d lines shown of %d matches", shown, d.MatchCount)
			}
			checkCounted(t, res.Text, limit, shown, total, d.MatchLimitReached, cutByView(d.Truncation), d.FullOutputPath)
			if m := cutRe.FindStringSubmatch(res.Text); m != nil {
				if atoi(m[1]) != int64(d.LinesCut) {
					t.Fatalf("%q, lines_cut %d", m[0], d.LinesCut)
				}
				plural(t, "grep lines cut", atoi(m[1]), m[2])
			} else if d.LinesCut > 0 {
				t.Fatalf("lines_cut %d, not said", d.LinesCut)
			}
		})
	}
}

func TestNoticePropertiesFind(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(17, 18))
	for i := range propCases {
		dir, files, _ := searchTree(t, r)
		p := mustPolicy(t, "default")
		p.Find.MaxBytes = 1 + r.IntN([]int{300, 20_000, 200_000}[r.IntN(3)])
		p.Find.MaxTokens = r.IntN(2) * r.IntN([]int{100, 5000}[r.IntN(2)])
		p.ResultBudget = 0
		ts := followToolset(t, p)
		limit := 1 + r.IntN([]int{3, 100, 3000}[r.IntN(3)])
		res, err := ts.Find(context.Background(), spillway.FindInput{Pattern: "**/*.txt", Path: dir, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			d := res.Details
			shown := int(lineCount(res.Content))
			if d.Count != shown {
				t.Fatalf("count %d, %d shown", d.Count, shown)
			}
			checkCounted(t, res.Text, limit, shown, files, d.ResultLimitReached, cutByView(d.Truncation), d.FullOutputPath)
		})
	}
}

func TestNoticePropertiesLs(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(19, 20))
	for i := range propCases {
		dir := t.TempDir()
		entries := r.IntN([]int{3, 60, 1500}[r.IntN(3)])
		for j := range entries {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("e%05d%s", j, strings.Repeat("n", r.IntN(80)))), nil, 0o644)
		}
		p := mustPolicy(t, "default")
		p.Ls.MaxBytes = 1 + r.IntN([]int{300, 20_000, 200_000}[r.IntN(3)])
		p.Ls.MaxTokens = r.IntN(2) * r.IntN([]int{100, 5000}[r.IntN(2)])
		p.ResultBudget = 0
		ts := followToolset(t, p)
		limit := 1 + r.IntN([]int{3, 100, 3000}[r.IntN(3)])
		res, err := ts.Ls(context.Background(), spillway.LsInput{Path: dir, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			d := res.Details
			if d.Count != strings.Count(res.Content, "\n") {
				t.Fatalf("count %d, %d entries shown", d.Count, strings.Count(res.Content, "\n"))
			}
			checkCounted(t, res.Text, limit, d.Count, entries, d.EntryLimitReached, cutByView(d.Truncation), d.FullOutputPath)
			if d.EntryLimitReached && !strings.Contains(res.Text, fmt.Sprintf("the directory holds %d", entries)) {
				t.Fatalf("the limit is said reached without the total %d: %q", entries, res.Text[max(0, len(res.Text)-300):])
			}
		})
	}
}
