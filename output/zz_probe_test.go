package output

import (
	"strconv"
	"testing"
)

func seqText(n int) []byte {
	var b []byte
	for i := 1; len(b) < n; i++ {
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, '\n')
	}
	return b
}

func BenchmarkProbe(b *testing.B) {
	data := seqText(4 << 20)
	p := New(Options{Limits: DefaultLimits})
	b.SetBytes(64 << 10)
	b.ReportAllocs()
	off := 0
	for b.Loop() {
		if off+64<<10 > len(data) {
			off = 0
		}
		p.Write(data[off : off+64<<10])
		off += 64 << 10
	}
}
