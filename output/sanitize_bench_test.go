package output

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// redrawFrames returns n frames of a progress block of rows lines, each
// frame after the first moving the cursor up over the previous one (as
// docker, npm and cargo do on a terminal), then a final line.
func redrawFrames(n, rows int, up string) []byte {
	var b bytes.Buffer
	b.WriteString("before the block\n")
	for f := 1; f <= n; f++ {
		if f > 1 {
			b.WriteString(up)
		}
		for r := 1; r <= rows; r++ {
			fmt.Fprintf(&b, "\x1b[2Kstep %d: %3d%% [%s%s]\n", r, f*100/n, strings.Repeat("=", f*20/n), strings.Repeat(" ", 20-f*20/n))
		}
	}
	b.WriteString("done\n")
	return b.Bytes()
}

// BenchmarkSanitizer measures the Sanitizer alone, one 64 KiB Write per op.
func BenchmarkSanitizer(b *testing.B) {
	cases := []struct {
		name string
		data []byte
	}{
		{"seq", seqBlock(1_000_000, 4<<20)},
		{"logs", bytes.Repeat([]byte("2026-01-02T03:04:05Z INFO  server: request handled path=/api/v1/items status=200 dur=3ms\n"), 50_000)},
		{"ansi", bytes.Repeat([]byte("\x1b[32mok\x1b[0m  github.com/example/pkg/sub\t0.123s\n"), 100_000)},
		{"redraw", bytes.Repeat(redrawFrames(30, 3, "\x1b[3A"), 400)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var n int
			s := newSanitizer(func(p []byte) { n += len(p) })
			chunks := chunksOf(c.data, 64<<10)
			for _, ch := range chunks {
				s.Write(ch)
			}
			b.SetBytes(64 << 10)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				s.Write(chunks[i])
				if i++; i == len(chunks) {
					i = 0
				}
			}
		})
	}
}
