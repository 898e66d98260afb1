package files

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// Page 2 of a big file seeks through the index built by page 1: the
// second read scans a few KiB, not the file.
func TestLineIndexReuse(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	data := numbered(300_000) // 3.3 MB, past defaultIndexMinBytes
	p := writeFile(t, dir, "big.txt", data)
	size := int64(len(data))

	before := tl.scanned.Load()
	res := read(t, tl, tool.ReadInput{Path: "big.txt"})
	first := tl.scanned.Load() - before
	if first < size {
		t.Fatalf("page 1 scanned %d bytes, want the whole file (%d) for total_lines", first, size)
	}
	if s := tl.IndexStats(); s.Builds != 1 || s.Hits != 0 || s.Entries != 1 {
		t.Fatalf("after page 1: %+v", s)
	}

	before = tl.scanned.Load()
	res = read(t, tl, tool.ReadInput{Path: "big.txt", Offset: 2001})
	second := tl.scanned.Load() - before
	if res.Content != linesOf(data, 2001, 4000) || res.TotalLines != 300_000 {
		t.Fatalf("page 2 is wrong: %q", trim(res.Text))
	}
	if s := tl.IndexStats(); s.Builds != 1 || s.Hits != 1 {
		t.Fatalf("page 2 rebuilt the index: %+v", s)
	}
	if second > 4*pageScanBuffer {
		t.Fatalf("page 2 scanned %d bytes of a %d-byte file: it rescanned", second, size)
	}

	// A deep page, exact.
	before = tl.scanned.Load()
	res = read(t, tl, tool.ReadInput{Path: "big.txt", Offset: 287_654, Limit: 3})
	if res.Content != "line 287654\nline 287655\nline 287656\n" {
		t.Fatalf("deep page: %q", res.Content)
	}
	if deep := tl.scanned.Load() - before; deep > 4*pageScanBuffer {
		t.Fatalf("deep page scanned %d bytes", deep)
	}

	// A changed file (new size and mtime) is scanned again: the old index
	// is never used for it.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("line 300001\n")
	f.Close()
	os.Chtimes(p, time.Now().Add(time.Minute), time.Now().Add(time.Minute))
	res = read(t, tl, tool.ReadInput{Path: "big.txt", Offset: 300_001})
	if res.Content != "line 300001\n" || res.TotalLines != 300_001 {
		t.Fatalf("after append: %q total %d", res.Content, res.TotalLines)
	}
	if s := tl.IndexStats(); s.Builds != 2 {
		t.Fatalf("after append: %+v", s)
	}
}

// With tiny strides and forced compaction, every page found through the
// index is the page the reference computes from the whole file.
func TestLineIndexMatchesReference(t *testing.T) {
	defer func(l, b int64, m int) { strideLines, strideBytes, maxCheckpoints = l, b, m }(strideLines, strideBytes, maxCheckpoints)
	strideLines, strideBytes, maxCheckpoints = 3, 40, 8

	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "bcd", "é", "😀", "\xff", "\r\n", "\n", "\n", "\n", strings.Repeat("L", 300)}
	for iter := 0; iter < 40; iter++ {
		tl, dir := newTestTools(t, Config{})
		tl.index = newIndexCache(4, 0)
		var b strings.Builder
		for n := rng.IntN(3000); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		data := []byte(b.String())
		writeFile(t, dir, "f.txt", string(data))
		total := refRead(data, 1, tool.ReadPolicy{MaxLines: 1, MaxBytes: 1}).total
		for k := 0; k < 15; k++ {
			offset := int64(rng.IntN(int(total)+3) + 1)
			limit := rng.IntN(30) + 1
			res := read(t, tl, tool.ReadInput{Path: "f.txt", Offset: int(offset), Limit: limit})
			want := refRead(data, offset, tool.ReadPolicy{MaxLines: limit, MaxBytes: 50 << 10, MaxLineChars: 2000})
			if res.Content != want.content || res.TotalLines != total || res.Shown != want.shown {
				t.Fatalf("iter %d offset %d limit %d: got %q (%d of %d lines), want %q (%d of %d)", iter, offset, limit,
					trim(res.Content), res.Shown, res.TotalLines, trim(want.content), want.shown, total)
			}
		}
		if s := tl.IndexStats(); s.Builds != 1 || s.Hits != 14 {
			t.Fatalf("iter %d: %+v", iter, s)
		}
		if idx := tl.index.get(keyOf(t, filepath.Join(dir, "f.txt"))); idx == nil || len(idx.checkpoints) > maxCheckpoints {
			t.Fatalf("iter %d: index missing or over its bound", iter)
		}
	}
}

func keyOf(t *testing.T, p string) fileKey {
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fileKey{p, versionOf(fi)}
}

func TestIndexBuilderCheckpoints(t *testing.T) {
	data := []byte(numbered(100_000))
	b := newIndexBuilder()
	for i := 0; i < len(data); i += 100_003 {
		b.add(data[i:min(len(data), i+100_003)])
	}
	idx := b.finish()
	if idx.totalLines != 100_000 || idx.size != int64(len(data)) {
		t.Fatalf("total %d size %d", idx.totalLines, idx.size)
	}
	for i, cp := range idx.checkpoints {
		if cp.Off > 0 && data[cp.Off-1] != '\n' {
			t.Fatalf("checkpoint %d at %d is not a line start", i, cp.Off)
		}
		if got := int64(bytes.Count(data[:cp.Off], newline)); got != cp.Line {
			t.Fatalf("checkpoint %d says line %d, is %d", i, cp.Line, got)
		}
		if i > 0 && cp.Line-idx.checkpoints[i-1].Line > strideLines+int64(countBlock) {
			t.Fatalf("checkpoints %d and %d are %d lines apart", i-1, i, cp.Line-idx.checkpoints[i-1].Line)
		}
	}
	if len(idx.checkpoints) < 2 {
		t.Fatal("no checkpoints")
	}
	for _, line := range []int64{0, 1, 1023, 1024, 55_555, 99_999} {
		cp := idx.lookup(line)
		if cp.Line > line {
			t.Fatalf("lookup(%d) = %+v", line, cp)
		}
	}
}

func TestNthNewline(t *testing.T) {
	data := []byte(strings.Repeat("ab\n", 5000))
	for _, n := range []int64{1, 2, 1365, 1366, 4999, 5000} {
		k, got := nthNewline(data, n)
		if k != int(3*n) || got != n {
			t.Fatalf("n=%d: %d %d", n, k, got)
		}
	}
	if k, got := nthNewline(data, 5001); k != -1 || got != 5000 {
		t.Fatalf("past the end: %d %d", k, got)
	}
}

func TestIndexCacheLRU(t *testing.T) {
	c := newIndexCache(2, 10)
	now := time.Now().UnixNano()
	k := func(p string, size int64) fileKey {
		return fileKey{p, fileVersion{size: size, mtime: now, ctime: now}}
	}
	c.put(k("a", 100), &lineIndex{totalLines: 1})
	c.put(k("b", 100), &lineIndex{totalLines: 2})
	c.put(k("small", 5), &lineIndex{totalLines: 3}) // under minBytes: not kept
	if c.get(k("small", 5)) != nil {
		t.Fatal("a small file's index was kept")
	}
	c.get(k("a", 100)) // a is now the most recent
	c.put(k("c", 100), &lineIndex{totalLines: 4})
	if c.get(k("b", 100)) != nil || c.get(k("a", 100)) == nil || c.get(k("c", 100)) == nil {
		t.Fatal("the least recently used index was not the one evicted")
	}
	if c.get(k("a", 101)) != nil || c.get(k("a", 100)) != nil {
		t.Fatal("an index was used for another version of the file")
	}
}

// A read through the index still works when the context is cancelled
// before it: it says so.
func TestReadCancelledWithIndex(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	writeFile(t, dir, "big.txt", numbered(200_000))
	read(t, tl, tool.ReadInput{Path: "big.txt"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tl.Read(ctx, tool.ReadInput{Path: "big.txt", Offset: 100_000}); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("%q", err)
	}
}

// A scan reads the version of the file that was stat'ed: bytes appended
// past end are not read, so a fast writer cannot make a read endless.
func TestScanStopsAtEnd(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	data := numbered(10)
	p := writeFile(t, dir, "f.txt", data)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := newIndexBuilder()
	pg := newPage(tool.ReadPolicy{MaxLines: 100, MaxBytes: 1000}, 1)
	if err := tl.scan(context.Background(), f, checkpoint{}, 0, pg, b, int64(len(linesOf(data, 1, 5)))); err != nil {
		t.Fatal(err)
	}
	if idx := b.finish(); idx.totalLines != 5 || string(pg.content) != linesOf(data, 1, 5) {
		t.Fatalf("total %d content %q", idx.totalLines, pg.content)
	}
}

// A file under /proc says it is empty and is not: it is read to its end.
func TestReadProcFile(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	tl, _ := newTestTools(t, Config{})
	res := read(t, tl, tool.ReadInput{Path: "/proc/self/status"})
	if res.TotalLines < 5 || !strings.HasPrefix(res.Content, "Name:") {
		t.Fatalf("%q %d", trim(res.Text), res.TotalLines)
	}
}

// Reads of one session run at once share the index cache safely (run
// with -race).
func TestReadConcurrent(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	data := numbered(150_000)
	writeFile(t, dir, "big.txt", data)
	writeFile(t, dir, "other.txt", numbered(120_000))
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 10; i++ {
				offset := 1 + (g*7919+i*104729)%149_000
				res, err := tl.Read(context.Background(), tool.ReadInput{Path: "big.txt", Offset: offset, Limit: 50})
				if err != nil || res.Content != linesOf(data, offset, offset+49) {
					errs <- fmt.Sprint(err, res.Text)
					return
				}
				tl.Read(context.Background(), tool.ReadInput{Path: "other.txt", Offset: offset})
			}
			errs <- ""
		}()
	}
	for g := 0; g < 8; g++ {
		if e := <-errs; e != "" {
			t.Fatalf("wrong page: %q", trim(e))
		}
	}
}

// A file replaced in place by another of the same size and mtime (a
// rename over it, or a rewrite then touch -r) is scanned anew: its inode
// or its ctime differs.
func TestIndexNotUsedForReplacedFile(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	old := strings.Repeat("aaaaaaaa\n", 200_000) // 1.8 MB: worth an index
	p := writeFile(t, dir, "f.txt", old)
	read(t, tl, tool.ReadInput{Path: "f.txt", Offset: 150_000, Limit: 1})
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"rename", "rewrite"} {
		// 100,000 lines of 18 bytes: the same size, other lines.
		var b strings.Builder
		for i := range 100_000 {
			fmt.Fprintf(&b, "%s-%010d\n", how[:6], i+1)
		}
		if how == "rename" {
			next := writeFile(t, dir, "next.txt", b.String())
			os.Chtimes(next, time.Time{}, fi.ModTime())
			if err := os.Rename(next, p); err != nil {
				t.Fatal(err)
			}
		} else {
			// The kernel's ctime moves by clock ticks (a few ms).
			time.Sleep(20 * time.Millisecond)
			if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(p, time.Time{}, fi.ModTime())
		}
		if now, _ := os.Stat(p); now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
			t.Fatalf("%s: size or mtime differ", how)
		}
		res := read(t, tl, tool.ReadInput{Path: "f.txt", Offset: 90_000, Limit: 1})
		if want := fmt.Sprintf("%s-%010d\n", how[:6], 90_000); res.Content != want || res.TotalLines != 100_000 {
			t.Errorf("%s: read at 90000 gave %q of %d lines, want %q of 100000", how, res.Content, res.TotalLines, want)
		}
		read(t, tl, tool.ReadInput{Path: "f.txt", Offset: 150_000, Limit: 1}) // index this version
	}
}
