package search

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/race"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/tool"
)

// newTestSearcher returns a Searcher on root with the default limits and a
// session spill store.
func newTestSearcher(t testing.TB, root string) *Searcher {
	t.Helper()
	store := spill.NewSession(spill.Config{TempDir: t.TempDir()})
	t.Cleanup(func() { store.Close() })
	return New(Config{Cwd: root, Spill: store})
}

// query is a grep query for the regular expression pattern, the rest of
// it in q.
func query(t testing.TB, pattern string, q tool.GrepInput) tool.GrepInput {
	t.Helper()
	return queryWith(t, pattern, MatchOptions{}, q)
}

// queryWith is a grep call of pattern read with opt; the pattern is
// checked here, so that a test's own mistake fails as such.
func queryWith(t testing.TB, pattern string, opt MatchOptions, q tool.GrepInput) tool.GrepInput {
	t.Helper()
	if _, err := Compile(pattern, opt); err != nil {
		t.Fatalf("pattern %q: %v", pattern, err)
	}
	q.Pattern, q.Literal, q.IgnoreCase = pattern, opt.Literal, opt.IgnoreCase
	return q
}

func grep(t testing.TB, s *Searcher, q tool.GrepInput) Found {
	t.Helper()
	r, err := s.Grep(context.Background(), q)
	if err != nil {
		t.Fatalf("grep %+v: %v", q, err)
	}
	return r
}

// shown is the lines a result shows, without the last '\n'.
func shown(l Lines) string { return strings.TrimSuffix(l.Out.Head, "\n") }

// naiveGrep is the reference: every line of every file, in order, with
// bufio-free splitting, no limits.
func naiveGrep(re *regexp.Regexp, name string, data []byte) []string {
	var out []string
	lines := strings.Split(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if re.MatchString(l) {
			out = append(out, fmt.Sprintf("%s:%d", name, i+1))
		}
	}
	return out
}

// TestGrepMatchesNaiveAcrossBuffers compares line numbers with a naive
// search on files that span several read buffers, with lines of every
// length (including one longer than the buffer).
func TestGrepMatchesNaiveAcrossBuffers(t *testing.T) {
	root := t.TempDir()
	var b strings.Builder
	for i := 0; b.Len() < 2*maxBuffer+12345; i++ {
		switch {
		case i%997 == 0:
			b.WriteString("needle at start " + strings.Repeat("y", i%5000) + "\n")
		case i == 4000:
			b.WriteString(strings.Repeat("z", maxBuffer+100) + "needle after a huge run\n")
		case i%13 == 0:
			b.WriteString(strings.Repeat("q", i%300) + " NeEdLe\n")
		default:
			b.WriteString(strings.Repeat("w", i%120) + "\n")
		}
	}
	data := b.String() + "needle on the last line without newline"
	writeTree(t, root, map[string]string{"big.txt": data})
	s := newTestSearcher(t, root)
	for _, in := range []struct {
		pattern    string
		ignoreCase bool
	}{
		{"needle", false},
		{"needle", true},
		{`ne+dle \w+`, false},
		{`^needle`, false},
		{`(?i)^q*\s*needle$`, false},
	} {
		q := queryWith(t, in.pattern, MatchOptions{IgnoreCase: in.ignoreCase}, tool.GrepInput{Limit: 100000, OutputMode: ModeContent})
		re := regexp.MustCompile(map[bool]string{true: "(?i)", false: ""}[in.ignoreCase] + in.pattern)
		want := naiveGrep(re, "big.txt", []byte(data))
		r := grep(t, s, q)
		var got []string
		for _, l := range strings.Split(fullOutput(t, r.Lines), "\n") {
			name, rest, _ := strings.Cut(l, ":")
			num, _, _ := strings.Cut(rest, ":")
			got = append(got, name+":"+num)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") || r.Matches != len(want) {
			t.Errorf("%+v: %d matches, naive %d\n got %.300q\nwant %.300q", in, r.Matches, len(want), got, want)
		}
		// count mode agrees.
		q.OutputMode = ModeCount
		if c := grep(t, s, q); c.Matches != len(want) {
			t.Errorf("%+v: count %d, naive %d", in, c.Matches, len(want))
		}
	}
}

// naiveContext renders content mode with context the simple way: every
// match and the lines around it, groups separated by "--".
func naiveContext(re *regexp.Regexp, name string, data string, n int) string {
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	show := make([]int, len(lines)) // 0 no, 1 context, 2 match
	for i, l := range lines {
		if re.MatchString(l) {
			show[i] = 2
			for j := max(0, i-n); j <= min(len(lines)-1, i+n); j++ {
				if show[j] == 0 {
					show[j] = 1
				}
			}
		}
	}
	var out []string
	prev := -2
	for i, s := range show {
		if s == 0 {
			continue
		}
		if prev >= 0 && i != prev+1 {
			out = append(out, "--")
		}
		sep := "-"
		if s == 2 {
			sep = ":"
		}
		out = append(out, fmt.Sprintf("%s%s%d%s %s", name, sep, i+1, sep, lines[i]))
		prev = i
	}
	return strings.Join(out, "\n")
}

// TestGrepContextAcrossBuffers: context lines before a match that sit in
// the previous read buffer, and after a match at a buffer's end.
func TestGrepContextAcrossBuffers(t *testing.T) {
	root := t.TempDir()
	// Lines of 100 bytes: read buffers end after line k*readBuffer/100.
	const width = 100
	edge := map[int]bool{}
	for k, offsets := range [][]int{{0, 1, 5}, {-2}, {0, 3}} {
		b := (k + 1) * readBuffer / width // first line of a buffer
		for _, d := range offsets {
			edge[b+d] = true
		}
	}
	var b strings.Builder
	for i := 0; b.Len() < 3*readBuffer+width*100; i++ {
		word := "line"
		if edge[i] || i%1499 == 0 || i%7919 == 0 {
			word = "needle"
		}
		fmt.Fprintf(&b, "%-*s\n", width-1, fmt.Sprintf("%s %d", word, i))
	}
	data := b.String()
	writeTree(t, root, map[string]string{"f.txt": data})
	s := newTestSearcher(t, root)
	for _, n := range []int{1, 3, 40} {
		r := grep(t, s, query(t, "needle", tool.GrepInput{Context: n, Limit: 100000}))
		got := fullOutput(t, r.Lines)
		want := naiveContext(regexp.MustCompile("needle"), "f.txt", data, n)
		if got != want {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("context %d differs at byte %d:\n got …%.200q\nwant …%.200q", n, i, got[max(0, i-100):], want[max(0, i-100):])
		}
	}
}

// fullOutput returns all the result lines: the spill file when the byte
// limit cut them.
func fullOutput(t *testing.T, l Lines) string {
	t.Helper()
	if l.Out.FullOutputPath == "" {
		return shown(l)
	}
	full, err := os.ReadFile(l.Out.FullOutputPath)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(full), "\n")
}

// TestGrepHeldMemoryBound: when the lines held for files ahead of the one
// shown pass maxHeld, files are scanned when they are reached instead (the
// result does not change), and a single file past it stops the search
// with a notice.
func TestGrepHeldMemoryBound(t *testing.T) {
	root := t.TempDir()
	tree := map[string]string{}
	for i := range 120 {
		var b strings.Builder
		for j := range 40 {
			fmt.Fprintf(&b, "needle %d %d %s\nplain\n", i, j, strings.Repeat("z", 150))
		}
		tree[fmt.Sprintf("d%d/f%03d.txt", i%4, i)] = b.String()
	}
	writeTree(t, root, tree)
	s := newTestSearcher(t, root)
	in := query(t, "needle", tool.GrepInput{Context: 1, Limit: 100000})
	want := grep(t, s, in)
	wantFull := fullOutput(t, want.Lines)

	defer func(old int64) { maxHeld = old }(maxHeld)
	maxHeld = 64 << 10 // several files' lines
	got := grep(t, s, in)
	if full := fullOutput(t, got.Lines); full != wantFull || got.Matches != 4800 || got.Capped != "" {
		t.Errorf("deferred scans changed the result: %d matches", got.Matches)
	}
	maxHeld = 4 << 10 // less than one file's lines
	got = grep(t, s, in)
	if got.Capped != "d0/f000.txt" || got.Held != 4<<10 {
		t.Errorf("capped: %q after %d bytes", got.Capped, got.Held)
	}
}

// TestGrepLongLinesStreamedAsHeld: a line longer than the read buffer is
// streamed without holding it when the prefilter finds nothing in it, and
// read back whole when it does; either way the result is the one of a
// scanner that holds every line (holdLongLines): the same lines, counts,
// context, and a long match shown around its first match.
func TestGrepLongLinesStreamedAsHeld(t *testing.T) {
	root := t.TempDir()
	long := func(n int, at int, marker string) string {
		b := []byte(strings.Repeat("x", n))
		if marker != "" {
			copy(b[at:], marker)
		}
		return string(b)
	}
	var b strings.Builder
	add := func(line string) { b.WriteString(line + "\n") }
	add("needle before")
	add(long(readBuffer+1000, 0, ""))                               // no literal: streamed
	add("context after a streamed line")                            //
	add(long(3*readBuffer, 2*readBuffer, "needle 7"))               // matches in its middle
	add(long(readBuffer+10, readBuffer, "needle"))                  // a literal, no match of `needle \d`
	add(long(maxBuffer-1, maxBuffer-20, "needle 8"))                // fits, with its '\n'
	add(long(maxBuffer, maxBuffer-20, "needle 9"))                  // one byte too long
	add(long(maxBuffer+5000, 100, "needle 1"))                      // longer than any buffer
	add(strings.Repeat("needle 2 ", readBuffer/4))                  // a literal all along
	data := b.String() + long(2*readBuffer, readBuffer, "needle 3") // last, no '\n'
	writeTree(t, root, map[string]string{"a.txt": data, "b.txt": "needle 4\n" + long(readBuffer*2, 5, "needle 5")})

	run := func(hold bool, pattern string, opt MatchOptions, q tool.GrepInput) (string, int) {
		t.Helper()
		defer func(old bool) { holdLongLines = old }(holdLongLines)
		holdLongLines = hold
		r := grep(t, newTestSearcher(t, root), queryWith(t, pattern, opt, q))
		return fullOutput(t, r.Lines), r.Matches
	}
	patterns := []string{"needle", `needle \d`, `NEEDLE \d+`, `^x+needle`, "streamed"}
	modes, contexts := []string{ModeContent, ModeCount, ModeFiles}, []int{0, 2}
	if race.Enabled {
		// The race detector is here for the searcher's goroutines; the
		// plain run makes the whole comparison. Under it, the regular
		// expressions that run over every byte of a 4 MB line took 10 s a
		// search, and the 60 searches two minutes: the searches whose
		// literal is found first run, once each.
		patterns, modes, contexts = []string{"needle", `needle \d`, "streamed"}, modes[:1], contexts[1:]
	}
	columns := false
	for _, pattern := range patterns {
		for _, mode := range modes {
			for _, ctx := range contexts {
				q := tool.GrepInput{Limit: 100000, OutputMode: mode, Context: ctx}
				opt := MatchOptions{IgnoreCase: pattern == `NEEDLE \d+`}
				held, heldN := run(true, pattern, opt, q)
				streamed, streamedN := run(false, pattern, opt, q)
				if streamed != held || streamedN != heldN {
					t.Errorf("%q %s context %d: streamed %d matches, held %d\nstreamed %.600q\nheld     %.600q", pattern, mode, ctx, streamedN, heldN, streamed, held)
				}
				columns = columns || strings.Contains(held, "col ")
			}
		}
	}
	if !columns {
		t.Error("no long match was shown around its match: the test lost its point")
	}
}
