package term

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkFlood feeds a flood of lines, plain and coloured, as a tty
// job's reader does (4 KiB reads).
func BenchmarkFlood(b *testing.B) {
	for _, kind := range []string{"plain", "colour"} {
		b.Run(kind, func(b *testing.B) {
			var sb strings.Builder
			for i := 0; sb.Len() < 1<<20; i++ {
				if kind == "colour" {
					fmt.Fprintf(&sb, "\x1b[32mline\x1b[m\x1b[K %d of some output text that is typical\r\n", i)
				} else {
					fmt.Fprintf(&sb, "line %d of some output text that is typical\r\n", i)
				}
			}
			data := []byte(sb.String())
			s := New(120, 40, nil, nil)
			defer s.Close()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				for p := data; len(p) > 0; {
					n := min(len(p), 4096)
					s.Write(p[:n])
					p = p[n:]
				}
			}
			s.View()
		})
	}
}
