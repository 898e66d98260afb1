package output

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/race"
)

// seqBlock returns about n bytes of `seq` output starting at from, ending
// on a newline.
func seqBlock(from, n int) []byte {
	b := make([]byte, 0, n+20)
	for i := from; len(b) < n; i++ {
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, '\n')
	}
	return b
}

// discardSpill is a Spill that drops what it gets.
type discardSpill struct{ n int64 }

func (d *discardSpill) Write(p []byte) (int, error) { d.n += int64(len(p)); return len(p), nil }
func (d *discardSpill) Path() string                { return "/dev/null" }
func (d *discardSpill) Close() error                { return nil }

// BenchmarkPipeline measures the steady state: one Pipeline, already past
// its limits and spilling, fed chunk after chunk. One op is one Write.
func BenchmarkPipeline(b *testing.B) {
	ansi := []byte(strings.Repeat("\x1b[32mok\x1b[0m  github.com/example/pkg/sub\t0.123s\n", 2000))
	logs := []byte(strings.Repeat("2026-01-02T03:04:05Z INFO  server: request handled path=/api/v1/items status=200 dur=3ms\n", 1000))
	cases := []struct {
		name   string
		lim    Limits
		data   []byte
		chunk  int
		binary BinaryRule
	}{
		{"seq/128KiB", DefaultLimits, seqBlock(1_000_000, 4<<20), 128 << 10, 0}, // a flood's reads
		{"seq/64KiB", DefaultLimits, seqBlock(1_000_000, 4<<20), 64 << 10, 0},
		{"seq/32KiB", DefaultLimits, seqBlock(1_000_000, 4<<20), 32 << 10, 0},
		{"seq/tail", Limits{Strategy: Tail, MaxLines: 2000, MaxBytes: 50 << 10}, seqBlock(1_000_000, 4<<20), 64 << 10, 0},
		{"logs/64KiB", DefaultLimits, bytes.Repeat(logs, 4), 64 << 10, 0},
		{"ansi/64KiB", DefaultLimits, bytes.Repeat(ansi, 8), 64 << 10, 0},
		// Binary by region, the default profile's rule for bash: plain text
		// never reaches it.
		{"seq/32KiB/regions", DefaultLimits, seqBlock(1_000_000, 4<<20), 32 << 10, BinaryRegions},
		{"logs/64KiB/regions", DefaultLimits, bytes.Repeat(logs, 4), 64 << 10, BinaryRegions},
		{"ansi/64KiB/regions", DefaultLimits, bytes.Repeat(ansi, 8), 64 << 10, BinaryRegions},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			p := New(Options{Limits: c.lim, Spill: func() (Spill, error) { return &discardSpill{}, nil }, Binary: c.binary})
			chunks := chunksOf(c.data, c.chunk)
			for _, ch := range chunks { // past the limits, spilling
				p.Write(ch)
			}
			b.SetBytes(int64(c.chunk))
			b.ReportAllocs()
			cpu0 := cpuTime()
			i := 0
			for b.Loop() {
				p.Write(chunks[i])
				if i++; i == len(chunks) {
					i = 0
				}
			}
			// On a shared machine wall time counts the waits for a core;
			// CPU time of the process does not.
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(b.N)*float64(c.chunk)/cpu.Seconds()/1e6, "cpu-MB/s")
			}
		})
	}
}

// chunksOf cuts data into pieces of exactly n bytes (the last whole piece
// and what follows it are dropped).
func chunksOf(data []byte, n int) [][]byte {
	var out [][]byte
	for len(data) >= n {
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// TestWriteDoesNotAllocate: in steady state a Write allocates nothing.
func TestWriteDoesNotAllocate(t *testing.T) {
	for _, lim := range []Limits{DefaultLimits, {Strategy: Tail, MaxLines: 2000, MaxBytes: 30 << 10}, {Strategy: Head, MaxLines: 10, MaxBytes: 1000, MaxLineChars: 50}} {
		for _, rule := range []BinaryRule{BinaryMostlyNonText, BinaryRegions} {
			p := New(Options{Limits: lim, Spill: func() (Spill, error) { return &discardSpill{}, nil }, Binary: rule})
			chunks := chunksOf(seqBlock(1, 1<<20), 32<<10)
			for _, ch := range chunks {
				p.Write(ch)
			}
			i := 0
			allocs := testing.AllocsPerRun(100, func() {
				p.Write(chunks[i%len(chunks)])
				i++
			})
			if allocs != 0 {
				t.Errorf("%s, binary rule %d: %.1f allocations per Write", lim.Strategy, rule, allocs)
			}
		}
	}
}

// TestOneGiBBoundedHeap pushes 1 GiB of seq-like text through a Pipeline
// and samples the Go heap as it goes: it must stay under 16 MiB.
func TestOneGiBBoundedHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("1 GiB stream")
	}
	total := 1 << 30
	if race.Enabled {
		// The race detector makes 1 GiB take minutes; memory is still
		// checked.
		total = 64 << 20
	}
	block := seqBlock(1, 1<<20)
	var sp discardSpill
	p := New(Options{Limits: DefaultLimits, Spill: func() (Spill, error) { return &sp, nil }})
	runtime.GC()
	var ms runtime.MemStats
	var peakInuse, peakAlloc uint64
	written := 0
	for next := 0; written < total; {
		n := min(len(block), total-written)
		p.Write(block[:n])
		written += n
		if written >= next {
			runtime.ReadMemStats(&ms)
			peakInuse, peakAlloc = max(peakInuse, ms.HeapInuse), max(peakAlloc, ms.HeapAlloc)
			next += 32 << 20
		}
	}
	p.Close()
	runtime.ReadMemStats(&ms)
	peakInuse, peakAlloc = max(peakInuse, ms.HeapInuse), max(peakAlloc, ms.HeapAlloc)
	r := p.Result()
	if r.Truncation.TotalBytes != int64(total) || sp.n != int64(total) {
		t.Fatalf("counted %d bytes, spilled %d", r.Truncation.TotalBytes, sp.n)
	}
	if peakInuse > 16<<20 || peakAlloc > 16<<20 {
		t.Fatalf("heap reached %.1f MiB in use, %.1f MiB allocated", float64(peakInuse)/(1<<20), float64(peakAlloc)/(1<<20))
	}
	t.Logf("%d MiB: peak heap in use %.1f MiB, allocated %.1f MiB", total>>20, float64(peakInuse)/(1<<20), float64(peakAlloc)/(1<<20))
}
