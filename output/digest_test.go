package output

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// runDigest runs in through a pipeline with shapes on (or off), spilling
// to a file in a test directory, and returns its result.
func runDigest(t testing.TB, in string, lim Limits, shapes bool) Result {
	t.Helper()
	dir := t.TempDir()
	p := New(Options{Limits: lim, Shapes: shapes, Spill: func() (Spill, error) {
		f, err := os.Create(filepath.Join(dir, "stdout.log"))
		return fileSpill{f}, err
	}})
	p.Write([]byte(in))
	p.Close()
	return p.Result()
}

var shapeLineRE = regexp.MustCompile(`^\[\.\.\. ([0-9,]+) lines? like (".*") \(lines ([0-9,]+)–([0-9,]+)\); grep it with pattern=(".*") \.\.\.\]$`)

func atoiCommas(t testing.TB, s string) int64 {
	n, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// checkDigest holds a digest to the invariants: whole lines of the input
// in its head and tail, the numbered lines each the line of that number
// (or its beginning, marked cut), every shape line's count and range
// true and its grep listing every line it stands for, valid UTF-8, the
// notice's numbers true, and the spill file the whole input.
func checkDigest(t *testing.T, in string, r Result) {
	t.Helper()
	lines := strings.SplitAfter(in, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	text := r.Text()
	if !utf8.ValidString(text) {
		t.Fatalf("a broken character in %q", text)
	}
	if r.digest == nil {
		return // the usual view, which the pipeline's own tests hold
	}
	if r.HeadLines > 0 && r.Head != strings.Join(lines[:r.HeadLines], "") && r.Truncation.LinesCut == 0 {
		t.Errorf("head %q is not lines 1-%d", r.Head, r.HeadLines)
	}
	if r.TailLines > 0 && r.Tail != strings.Join(lines[int64(len(lines))-r.TailLines:], "") && r.Truncation.LinesCut == 0 {
		t.Errorf("tail %q is not the last %d lines", r.Tail, r.TailLines)
	}
	if r.LastLine != int64(len(lines)) {
		t.Errorf("last line %d of %d", r.LastLine, len(lines))
	}
	a, b := r.HeadLines+1, int64(len(lines))-r.TailLines
	middle := strings.TrimPrefix(strings.TrimSuffix(text, r.Tail), r.Head)
	var numbered int64
	for _, l := range strings.Split(strings.TrimSuffix(middle, "\n"), "\n") {
		if m := shapeLineRE.FindStringSubmatch(l); m != nil {
			count, first, last := atoiCommas(t, m[1]), atoiCommas(t, m[3]), atoiCommas(t, m[4])
			pat, err := strconv.Unquote(m[5])
			if err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			re := regexp.MustCompile(pat)
			if first < a || last > b || first > last {
				t.Errorf("%q: range outside lines %d-%d", l, a, b)
				continue
			}
			want := shapeText([]byte(strings.TrimSuffix(lines[first-1], "\n")))
			var n int64
			for i := first; i <= last; i++ {
				line := strings.TrimSuffix(lines[i-1], "\n")
				if shapeText([]byte(line)) != want {
					continue
				}
				n++
				if !re.MatchString(line) {
					t.Errorf("%q: its grep misses line %d %q", l, i, line)
				}
			}
			if n != count || !re.MatchString(strings.TrimSuffix(lines[last-1], "\n")) || shapeText([]byte(strings.TrimSuffix(lines[last-1], "\n"))) != want {
				t.Errorf("%q: %d lines of that shape in lines %d-%d (or the range ends on another)", l, n, first, last)
			}
			continue
		}
		num, rest, ok := strings.Cut(l, ": ")
		n, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil {
			continue // the line of what is left unsaid
		}
		numbered++
		if n < a || n > b {
			t.Errorf("numbered line %d outside lines %d-%d", n, a, b)
			continue
		}
		orig := strings.TrimSuffix(lines[n-1], "\n")
		if rest != orig && !(strings.HasSuffix(rest, " [...]") && strings.HasPrefix(orig, strings.TrimSuffix(rest, " [...]"))) {
			t.Errorf("line %d shown as %q, is %q", n, rest, orig)
		}
	}
	if numbered != r.digest.lines {
		t.Errorf("%d numbered lines, the result counts %d", numbered, r.digest.lines)
	}
	if got := r.Truncation.OutputLines; got != r.HeadLines+r.TailLines+numbered {
		t.Errorf("output_lines %d, shown %d", got, r.HeadLines+r.TailLines+numbered)
	}
	if r.FullOutputPath != "" {
		b, err := os.ReadFile(r.FullOutputPath)
		if err != nil || string(b) != in {
			t.Errorf("the spill file is not the input (%v)", err)
		}
	}
	if next := r.Next(); len(next) == 0 || next[0]["offset"] != a || next[0]["limit"] != b-a+1 {
		t.Errorf("the first next call %v does not read lines %d-%d", next, a, b)
	}
}

// buildLog is a make log of n compile lines with gcc's error after line
// at: the case the digest is for.
func buildLog(n, at int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "compiling module %d ok\n", i)
		if i == at {
			b.WriteString("parser.c:4:20: error: ‘undeclared_count’ undeclared\n")
		}
	}
	b.WriteString("make: *** [Makefile:41: all] Error 1\n")
	return b.String()
}

func TestDigestBuildLog(t *testing.T) {
	in := buildLog(40000, 687)
	r := runDigest(t, in, DefaultLimits, true)
	checkDigest(t, in, r)
	text := r.Text()
	for _, want := range []string{
		"compiling module 1 ok\n",
		`[... 39,998 lines like "compiling module <N> ok" (lines 2–40,000); grep it with pattern="^compiling module [0-9]+ ok$" ...]`,
		"688: parser.c:4:20: error: ‘undeclared_count’ undeclared\n",
		"compiling module 40000 ok\nmake: *** [Makefile:41: all] Error 1\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if len(text) > 1000 {
		t.Errorf("%d bytes for one shape and one error:\n%s", len(text), text)
	}
	notice := r.Notice("stdout")
	if !strings.Contains(notice, "showing line 1 and lines 40001-40002 of 40002, 1 line between them numbered; the rest by shape above") {
		t.Errorf("notice %q", notice)
	}
	if len(r.Failures) != 1 || r.Failures[0].Line != 688 || r.FailuresCut != 1 {
		t.Errorf("failures %+v, %d cut", r.Failures, r.FailuresCut)
	}
	// The grep of the shape lists its lines in the spill file: all of
	// them, the ones the head and tail show too.
	next := r.Next()
	grep := next[len(next)-1]
	re := regexp.MustCompile(grep["pattern"].(string))
	n := 0
	for _, l := range strings.Split(in, "\n") {
		if re.MatchString(l) {
			n++
		}
	}
	if grep.Tool() != "grep" || grep["path"] != r.FullOutputPath || n != 40000 {
		t.Errorf("grep %v lists %d lines", grep, n)
	}
}

// What the digest leaves alone: a result that fits, and a cut one whose
// lines are not mostly of a few shapes, are what they were.
func TestDigestLeavesAlone(t *testing.T) {
	var unique strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&unique, "%s\n", strings.Repeat(string(rune('a'+i%26)), 1+i%50)+strconv.Itoa(i))
	}
	for name, in := range map[string]string{
		"fits":       buildLog(100, 50),
		"empty":      "",
		"unshaped":   unique.String(),
		"small seq":  "1\n2\n3\n",
		"one line":   "no newline",
		"long lines": strings.Repeat(strings.Repeat("x", 3000)+"\n", 40),
	} {
		off := runDigest(t, in, DefaultLimits, false)
		on := runDigest(t, in, DefaultLimits, true)
		if on.Text() != off.Text() || on.Truncation != off.Truncation || strings.ReplaceAll(on.Notice("stdout"), on.FullOutputPath, "F") != strings.ReplaceAll(off.Notice("stdout"), off.FullOutputPath, "F") {
			t.Errorf("%s: the digest changed the result: %q\n%s", name, on.Text()[:min(len(on.Text()), 300)], on.Notice("stdout"))
		}
	}
}

// A flood of failure lines of one shape: two of them numbered, the shape
// for the rest, the grep of all failures last in the next calls.
func TestDigestFailureFlood(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 20000; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "src/m%d.c:%d:5: error: expected ; before }\n", i, i)
		} else {
			fmt.Fprintf(&b, "compiling unit %d\n", i)
		}
	}
	in := b.String()
	r := runDigest(t, in, DefaultLimits, true)
	checkDigest(t, in, r)
	if len(r.Failures) != 2 || r.FailuresCut != 1999 {
		t.Errorf("%d failures shown, %d cut:\n%s", len(r.Failures), r.FailuresCut, r.Text())
	}
	if !strings.Contains(r.Text(), `[... 1,999 lines like "src/m<N>.c:<N>:<N>: error: expected ; before }" (lines 10–19,990)`) ||
		!strings.Contains(r.Text(), "1,997 more look like failures") {
		t.Errorf("no shape or count of the failures:\n%s", r.Text())
	}
	next := r.Next()
	if last := next[len(next)-1]; last.Tool() != "grep" || last["pattern"] != failureGrepPattern {
		t.Errorf("the last next call is %v", last)
	}
}

// FuzzDigest: lines made from a few templates with random numbers, ids
// and rare lines among them, cut under small limits, hold the digest's
// invariants.
func FuzzDigest(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 250, 4}, uint16(3000), uint8(3))
	f.Add([]byte("compiling\x00\x01\xff\x02 é"), uint16(500), uint8(9))
	f.Fuzz(func(t *testing.T, seed []byte, n uint16, maxLines uint8) {
		if len(seed) == 0 {
			return
		}
		templates := []string{"compiling module %d ok", "  step %d of %d", "GET /api/%d 200 %d.%dms id=%x", "", "\t%d\té"}
		var b strings.Builder
		for i := 0; i < int(n%4000)+1; i++ {
			c := seed[i%len(seed)]
			switch {
			case c >= 250: // a rare line, now and then a failure
				fmt.Fprintf(&b, "error: thing %c%c went wrong\n", 'a'+rune(c%7), 'é')
			case c >= 200:
				b.WriteString(strings.Repeat("y", int(c)*9) + "\n")
			default:
				tpl := templates[int(c)%len(templates)]
				args := []any{i, int(c) * i, i % 7, 0x9f3c2ab1 + i}
				fmt.Fprintf(&b, tpl+"\n", args[:strings.Count(tpl, "%")]...)
			}
		}
		in := b.String()
		lim := DefaultLimits
		lim.MaxLines = int(maxLines%50) + 1
		lim.MaxBytes = 2048 + int(n%8000)
		lim.MaxLineChars = 500
		r := runDigest(t, in, lim, true)
		checkDigest(t, in, r)
		if got := len(r.Text()); r.digest != nil && got > lim.MaxBytes {
			t.Errorf("%d bytes over the %d limit", got, lim.MaxBytes)
		}
	})
}
