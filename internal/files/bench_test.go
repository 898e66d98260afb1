package files

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// TestBenchSecondPage measures, in one process, the second page of a big
// file after the first (bench/read.sh runs it on its seq file). It runs
// only when SPILLWAY_BENCH_READ_FILE names the file and prints the
// figures; it asserts only that the pages are right.
func TestBenchSecondPage(t *testing.T) {
	path := os.Getenv("SPILLWAY_BENCH_READ_FILE")
	if path == "" {
		t.Skip("set SPILLWAY_BENCH_READ_FILE to a big text file (bench/read.sh does)")
	}
	offset := int64(100_000_000)
	if s := os.Getenv("SPILLWAY_BENCH_READ_OFFSET"); s != "" {
		fmt.Sscan(s, &offset)
	}
	tl := New(Config{Cwd: filepath.Dir(path)})
	ctx := context.Background()

	start := time.Now()
	first, err := tl.Read(ctx, tool.ReadInput{Path: path, Offset: int(offset)})
	firstTook := time.Since(start)
	if err != nil || first.Shown == 0 {
		t.Fatalf("first page: %v %q", err, trim(first.Text))
	}
	next := offset + first.Shown
	start = time.Now()
	second, err := tl.Read(ctx, tool.ReadInput{Path: path, Offset: int(next)})
	secondTook := time.Since(start)
	if err != nil || second.Line != next || second.TotalLines != first.TotalLines {
		t.Fatalf("second page: %v %q", err, trim(second.Text))
	}
	// Later pages, for a steadier figure.
	var later []time.Duration
	for i := 1; i <= 20; i++ {
		start = time.Now()
		_, err := tl.Read(ctx, tool.ReadInput{Path: path, Offset: int(next) + i*2000})
		later = append(later, time.Since(start))
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Slice(later, func(i, j int) bool { return later[i] < later[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Printf("first page (full scan, index built): %.1f ms\n", ms(firstTook))
	fmt.Printf("second page: %.3f ms\n", ms(secondTook))
	fmt.Printf("later pages: median %.3f ms, max %.3f ms\n", ms(later[len(later)/2]), ms(later[len(later)-1]))
	fmt.Printf("index: %+v\n", tl.IndexStats())
}

// BenchmarkReadPageIndexed reads pages deep in a 300 000-line file
// through its line index.
func BenchmarkReadPageIndexed(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "f.txt")
	os.WriteFile(p, []byte(numbered(300_000)), 0o644)
	tl := New(Config{Cwd: dir})
	tl.Read(context.Background(), tool.ReadInput{Path: p})
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := tl.Read(context.Background(), tool.ReadInput{Path: p, Offset: 1 + (i*7919)%298_000}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadFullScan reads the first page of a 30 MB file with no
// index: the full scan that counts its lines and builds the index.
func BenchmarkReadFullScan(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "f.txt")
	os.WriteFile(p, []byte(numbered(3_000_000)), 0o644)
	b.SetBytes(int64(len(numbered(3_000_000))))
	for b.Loop() {
		tl := New(Config{Cwd: dir})
		if _, err := tl.Read(context.Background(), tool.ReadInput{Path: p, Offset: 1_500_000}); err != nil {
			b.Fatal(err)
		}
	}
}
