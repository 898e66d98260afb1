package files

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spillway-dev/spillway/tool"
)

// feedPage feeds data to a page from line offset on, in chunks of the
// given sizes (cycled), the way scan does after its skip.
func feedPage(data []byte, offset int64, lim tool.ReadPolicy, chunks []int) *page {
	for i := int64(1); i < offset; i++ {
		k := bytes.IndexByte(data, '\n')
		if k < 0 {
			data = nil
			break
		}
		data = data[k+1:]
	}
	pg := newPage(lim, offset)
	for i := 0; len(data) > 0; i++ {
		n := len(data)
		if len(chunks) > 0 {
			n = min(n, max(1, chunks[i%len(chunks)]))
		}
		if pg.write(data[:n]) {
			return pg
		}
		data = data[n:]
	}
	pg.close()
	return pg
}

func checkPage(t *testing.T, data []byte, offset int64, lim tool.ReadPolicy, chunks []int) {
	t.Helper()
	want := refRead(data, offset, lim)
	pg := feedPage(data, offset, lim, chunks)
	if got := string(pg.text); got != want.text {
		t.Fatalf("offset %d %+v chunks %v: text\n got %q\nwant %q", offset, lim, chunks, trim(got), trim(want.text))
	}
	if got := string(pg.content); got != want.content {
		t.Fatalf("offset %d %+v: content\n got %q\nwant %q", offset, lim, trim(got), trim(want.content))
	}
	if pg.shown != want.shown || pg.linesCut != want.cut || pg.firstCut != want.firstCut || pg.firstCutBytes != want.firstCutBytes {
		t.Fatalf("offset %d %+v: shown/cut/firstCut/bytes %d/%d/%d/%d, want %d/%d/%d/%d", offset, lim,
			pg.shown, pg.linesCut, pg.firstCut, pg.firstCutBytes, want.shown, want.cut, want.firstCut, want.firstCutBytes)
	}
	if pg.overLine != want.overLine || pg.overBytes != want.overSize {
		t.Fatalf("offset %d %+v: over line %d (%d bytes), want %d (%d)", offset, lim, pg.overLine, pg.overBytes, want.overLine, want.overSize)
	}
	if offset+pg.shown-1 < want.total && pg.stop != want.stop {
		t.Fatalf("offset %d %+v: stop %d, want %d", offset, lim, pg.stop, want.stop)
	}
	// The read tool's invariants (docs/tools.md), whatever the reference says.
	if len(pg.text) > lim.MaxBytes {
		t.Fatalf("text is %d bytes, over the %d limit", len(pg.text), lim.MaxBytes)
	}
	if pg.shown > int64(lim.MaxLines) {
		t.Fatalf("%d lines shown, over the %d limit", pg.shown, lim.MaxLines)
	}
	if !utf8.Valid(pg.text) {
		t.Fatalf("text is not valid UTF-8: %q", trim(string(pg.text)))
	}
}

func trim(s string) string {
	if len(s) > 300 {
		return s[:150] + " … " + s[len(s)-150:]
	}
	return s
}

func TestPageMatchesReference(t *testing.T) {
	cases := []struct {
		name string
		data string
	}{
		{"empty", ""},
		{"one line", "hello\n"},
		{"no final newline", "a\nb\nc"},
		{"blank lines", "\n\n\n"},
		{"crlf", "a\r\nbb\r\n\r\nlast"},
		{"lone cr", "a\rb\nc\r"},
		{"invalid utf8", "ab\xffcd\n\xe2\x82\n\xe2\x82\xac ok\n\xf0\x9f\x98"},
		{"multibyte", strings.Repeat("héllo wörld ✓ 😀\n", 20)},
		{"long lines", strings.Repeat("x", 37) + "\n" + strings.Repeat("é", 25) + "\r\n" + strings.Repeat("😀", 19) + "\n" + strings.Repeat("y", 20) + "\r\n"},
	}
	limits := []tool.ReadPolicy{
		{MaxLines: 2000, MaxBytes: 50 << 10, MaxLineChars: 2000},
		{MaxLines: 3, MaxBytes: 50 << 10, MaxLineChars: 20},
		{MaxLines: 100, MaxBytes: 64, MaxLineChars: 20},
		{MaxLines: 100, MaxBytes: 30, MaxLineChars: 0},
		{MaxLines: 100, MaxBytes: 100, MaxLineChars: 20, LineNumbers: true},
		{MaxLines: 1, MaxBytes: 10, MaxLineChars: 0, LineNumbers: true},
	}
	for _, c := range cases {
		for _, lim := range limits {
			for offset := int64(1); offset <= 6; offset++ {
				for _, chunks := range [][]int{nil, {1}, {2, 3}, {7}} {
					checkPage(t, []byte(c.data), offset, lim, chunks)
				}
			}
		}
	}
}

// FuzzPage checks the streaming page against the reference on any input,
// any limits and any split of the input into writes.
func FuzzPage(f *testing.F) {
	f.Add([]byte("a\nb\r\nccc\n"), uint8(1), uint8(5), uint16(40), uint8(4), false, uint8(3))
	f.Add([]byte("\xe2\x82\xac\xe2\x82\n\xff\xfe\r\n"), uint8(1), uint8(10), uint16(16), uint8(2), true, uint8(1))
	f.Add([]byte(strings.Repeat("😀", 30)+"\n"+strings.Repeat("z", 90)), uint8(2), uint8(3), uint16(50), uint8(0), false, uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, offset, maxLines uint8, maxBytes uint16, maxLineChars uint8, numbers bool, chunk uint8) {
		lim := tool.ReadPolicy{
			MaxLines:     int(maxLines%50) + 1,
			MaxBytes:     int(maxBytes%2000) + 1,
			MaxLineChars: int(maxLineChars % 40),
			LineNumbers:  numbers,
		}
		checkPage(t, data, int64(offset%10)+1, lim, []int{int(chunk%16) + 1, int(chunk%5) + 1})
	})
}

// TestPageRandom runs the reference check on random files with long
// lines, invalid bytes and CRLF.
func TestPageRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "é", "😀", "\xff", "\xe2\x82", "\r", "\r\n", "\n", "\t", "xyz"}
	for iter := 0; iter < 300; iter++ {
		var b strings.Builder
		for n := rng.IntN(400); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		lim := tool.ReadPolicy{
			MaxLines:     rng.IntN(20) + 1,
			MaxBytes:     rng.IntN(300) + 1,
			MaxLineChars: rng.IntN(12),
			LineNumbers:  rng.IntN(2) == 0,
		}
		checkPage(t, []byte(b.String()), int64(rng.IntN(8)+1), lim, []int{rng.IntN(9) + 1, rng.IntN(3) + 1})
	}
}
