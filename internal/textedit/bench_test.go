package textedit

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
)

// benchText returns about 16 MiB of lines with the line "needle" at each
// of every-th line.
func benchText(every int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 16<<20; i++ {
		if i%every == every/2 {
			b.WriteString("needle\r\n")
			continue
		}
		fmt.Fprintf(&b, "2026-01-02T03:04:05Z INFO server: request %09d handled\r\n", i)
	}
	return b.Bytes()
}

func benchStream(b *testing.B, every int, all bool) {
	in := benchText(every)
	e := Edit{OldString: "needle\n", NewString: "thread\n", ReplaceAll: all}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := Stream(context.Background(), bytes.NewReader(in), io.Discard, e, "\r\n", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamOne streams 16 MiB with one replacement.
func BenchmarkStreamOne(b *testing.B) { benchStream(b, 200_000, false) }

// BenchmarkStreamAll streams 16 MiB replacing every 100th line.
func BenchmarkStreamAll(b *testing.B) { benchStream(b, 100, true) }
