package output

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShapeText(t *testing.T) {
	for _, c := range []struct{ line, shape string }{
		{"compiling module 688 ok", "compiling module <N> ok"},
		{"gcc -O2 -c src/mod00042.c -o build/mod00042.o", "gcc -O<N> -c src/mod<N>.c -o build/mod<N>.o"},
		{"commit 9f3c2ab1 at 0x7ffd", "commit <H> at <N>x<N>ffd"},
		{"index-4f3a2b1c.js   812.30 kB", "index-<H>.js  <N>.<N> kB"},
		{"deadbeef and 123456", "deadbeef and <N>"}, // a hex id has a digit and a letter
		{"a\t\tb  c d", "a\tb  c d"},
		{"", ""},
		{"café 12€", "café <N>€"},
	} {
		if got := shapeText([]byte(c.line)); got != c.shape {
			t.Errorf("shapeText(%q) = %q, want %q", c.line, got, c.shape)
		}
	}
}

// Lines of one shape hash alike, and lines of two shapes apart.
func TestShapeHash(t *testing.T) {
	same := [][2]string{
		{"step 1 of 12", "step 200 of 3"},
		{"id=9f3c2ab1 ok", "id=0a1b2c3d ok"},
		{"a   1", "a  22"},
	}
	for _, p := range same {
		a, _ := shapeHash([]byte(p[0]))
		b, _ := shapeHash([]byte(p[1]))
		if a != b {
			t.Errorf("%q and %q: two shapes", p[0], p[1])
		}
	}
	apart := [][2]string{
		{"step 1 of 12", "step 1 of twelve"},
		{"a 1", "a  1"},
		{"a 1", "a\t1"},
		{"x<N>", "x1"},
	}
	for _, p := range apart {
		a, _ := shapeHash([]byte(p[0]))
		b, _ := shapeHash([]byte(p[1]))
		if a == b {
			t.Errorf("%q and %q: one shape", p[0], p[1])
		}
	}
	if _, ok := shapeHash(make([]byte, maxShapeLine+1)); ok {
		t.Error("a line over maxShapeLine has a shape")
	}
}

// checkShape holds the shape functions of one line to their contract:
// the pattern matches the line (so the grep a digest gives lists every
// line of the shape), the shape of valid UTF-8 is valid UTF-8, and two
// lines with one shape text have one hash.
func checkShape(t *testing.T, line, other string) {
	t.Helper()
	if strings.Contains(line, "\n") || !utf8.ValidString(line) {
		return // lines reach the shapes sanitized: whole lines of valid UTF-8
	}
	pat := shapePattern([]byte(line))
	re, err := regexp.Compile(pat)
	if err != nil {
		t.Fatalf("shapePattern(%q) = %q: %v", line, pat, err)
	}
	if !re.MatchString(line) {
		t.Errorf("shapePattern(%q) = %q does not match it", line, pat)
	}
	if !utf8.ValidString(shapeText([]byte(line))) {
		t.Errorf("shapeText(%q) breaks a character", line)
	}
	if strings.Contains(other, "\n") || !utf8.ValidString(other) {
		return
	}
	a, okA := shapeHash([]byte(line))
	b, okB := shapeHash([]byte(other))
	if okA && okB && shapeText([]byte(line)) == shapeText([]byte(other)) && a != b {
		t.Errorf("%q and %q: one shape text, two hashes", line, other)
	}
	if okA && okB && a == b && shapeText([]byte(line)) != shapeText([]byte(other)) {
		t.Errorf("%q and %q: one hash, two shapes", line, other)
	}
	if okB && a == b && shapeText([]byte(line)) == shapeText([]byte(other)) && !re.MatchString(other) {
		t.Errorf("%q: the pattern of %q's shape does not match it", other, line)
	}
}

// FuzzShape: the shape of any line, and of a line made like it.
func FuzzShape(f *testing.F) {
	for _, s := range []string{"compiling module 688 ok", "id=9f3c2ab1\tx  y", "café 12€", "a.b*c+d?(e)[f]{g}|h^$\\", ""} {
		f.Add(s, "7")
	}
	f.Fuzz(func(t *testing.T, line, digits string) {
		// A line of the same shape: each digit run replaced by digits
		// (when they are digits).
		other := line
		if digits != "" && strings.Trim(digits, "0123456789") == "" {
			other = regexp.MustCompile(`[0-9]+`).ReplaceAllLiteralString(line, digits)
		}
		checkShape(t, line, other)
	})
}
