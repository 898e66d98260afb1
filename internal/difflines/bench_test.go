package difflines

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// benchFiles returns n lines and a copy with every step-th line changed.
func benchFiles(n, step int) (a, b []byte) {
	for i := range n {
		l := fmt.Appendf(nil, "line %06d of a source file, with some text after it\n", i)
		a = append(a, l...)
		if i%step == 0 {
			l = fmt.Appendf(nil, "line %06d changed\n", i)
		}
		b = append(b, l...)
	}
	return a, b
}

func benchUnified(b *testing.B, n, step int) {
	x, y := benchFiles(n, step)
	b.SetBytes(int64(len(x) + len(y)))
	for b.Loop() {
		if _, err := Unified(io.Discard, bytes.NewReader(x), bytes.NewReader(y), "a", "b"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnifiedSparse diffs 20,000 lines with a change every 500.
func BenchmarkUnifiedSparse(b *testing.B) { benchUnified(b, 20_000, 500) }

// BenchmarkUnifiedDense diffs 5,000 lines with a change every 3: the
// edit script needs more than maxEdits edits and falls back.
func BenchmarkUnifiedDense(b *testing.B) { benchUnified(b, 5_000, 3) }
