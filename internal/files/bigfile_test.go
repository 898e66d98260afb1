package files

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// peakHeap runs f while sampling the heap, and returns how far the heap
// in use rose above what it was before.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	peak := base
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	f()
	close(stop)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapInuse)
	return peak - base
}

// A 1 GiB file that is a single line costs a few MiB of heap to read,
// whether the line is cut (default policy) or refused as over the byte
// limit (no per-line cut).
func TestReadOneGiBSingleLineBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 1 GiB file")
	}
	const size = 1 << 30
	dir := t.TempDir()
	p := filepath.Join(dir, "huge.txt")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	chunk := []byte(strings.Repeat("0123456789abcdef", 1<<12)) // 64 KiB, no newline
	for n := 0; n < size; n += len(chunk) {
		if _, err := w.Write(chunk); err != nil {
			t.Skipf("cannot write a 1 GiB file: %v", err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Skipf("cannot write a 1 GiB file: %v", err)
	}
	f.Close()

	const bound = 16 << 20
	tl := New(Config{Cwd: dir})
	var res Page
	grew := peakHeap(func() { res, err = tl.Read(context.Background(), tool.ReadInput{Path: "huge.txt"}) })
	t.Logf("cut line: heap rose %.1f MiB", float64(grew)/(1<<20))
	if err != nil || res.TotalLines != 1 || res.LinesCut != 1 || res.Size != size || res.FirstCut != 1 || res.FirstCutBytes != size {
		t.Fatalf("%v %q %+v", err, trim(res.Text), res)
	}
	if res.Text != strings.Repeat("0123456789abcdef", 125)+"... [1073739824 chars cut]" {
		t.Fatalf("%q", trim(res.Text))
	}
	if grew > bound {
		t.Fatalf("reading a 1 GiB line raised the heap by %d bytes (bound %d)", grew, bound)
	}

	tl = New(Config{Cwd: dir, Read: tool.ReadPolicy{MaxLines: 2000, MaxBytes: 50 << 10}})
	grew = peakHeap(func() { res, err = tl.Read(context.Background(), tool.ReadInput{Path: "huge.txt"}) })
	t.Logf("over the byte limit: heap rose %.1f MiB", float64(grew)/(1<<20))
	// Too long to show even cut: its first 50 KiB, and how to go on.
	if err != nil || res.Part == nil || *res.Part != (LinePart{Chars: 51200, LineBytes: size, More: true}) || len(res.Content) != 51200 {
		t.Fatalf("%v %q %+v", err, trim(res.Text), res.Part)
	}
	if grew > bound {
		t.Fatalf("paging into a 1 GiB line raised the heap by %d bytes (bound %d)", grew, bound)
	}
}
