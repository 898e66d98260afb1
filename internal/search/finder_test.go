package search

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFinderAgreesWithIndex: a finder finds what bytes.Index finds, with
// its rare byte common, rare or absent, at the edges of the buffer, and
// once it hands the rest of a buffer to bytes.Index.
func TestFinderAgreesWithIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lits := []string{"x", "ErrUnexpectedEOF", "Error(", "func ", "zz", "qQq", "aaaa", "\xff\x00", "日本"}
	alphabets := []string{"ab", "xyz", "Error( func", "EOFErr", "aq", "日本語"}
	for _, lit := range lits {
		f := newFinder([]byte(lit))
		for _, alpha := range alphabets {
			for range 200 {
				n := r.IntN(300)
				var b strings.Builder
				for b.Len() < n {
					if r.IntN(50) == 0 {
						b.WriteString(lit[:r.IntN(len(lit)+1)])
					}
					b.WriteByte(alpha[r.IntN(len(alpha))])
				}
				buf := []byte(b.String())
				for from := 0; from <= len(buf); from += 1 + r.IntN(7) {
					if got, want := f.index(buf[from:]), bytes.Index(buf[from:], []byte(lit)); got != want {
						t.Fatalf("finder(%q).index(%q) = %d, want %d", lit, buf[from:], got, want)
					}
				}
			}
		}
	}
	// Many false hits of the rare byte: the fallback to bytes.Index.
	f := newFinder([]byte("qx"))
	if f.rare != 'q' {
		t.Fatalf("the rare byte of qx is %q, want q", f.rare)
	}
	buf := append(bytes.Repeat([]byte("q"), 10000), "qx"...)
	if got := f.index(buf); got != 10000 {
		t.Errorf("index = %d, want 10000", got)
	}
}

func FuzzFinder(f *testing.F) {
	f.Add([]byte("ErrUnexpectedEOF"), []byte("io.ErrUnexpectedEOF is returned"))
	f.Add([]byte("Error("), []byte("func parseError(err error)"))
	f.Add([]byte("xq"), bytes.Repeat([]byte("x"), 2000))
	f.Fuzz(func(t *testing.T, lit, buf []byte) {
		fd := newFinder(lit)
		if got, want := fd.index(buf), bytes.Index(buf, lit); got != want {
			t.Fatalf("finder(%q).index(%q) = %d, want %d", lit, buf, got, want)
		}
	})
}
