package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAttackReadReplacedFileSameSizeAndMtime: a file replaced (mv) by
// another of the same size and mtime was read through the line index of
// the first: `read offset=200000` claimed "lines 200000-… of 300000" and
// showed text from another line of the new file.
func TestAttackReadReplacedFileSameSizeAndMtime(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cs := connectStdioArgs(t, t.TempDir(), nil, "--root", dir)

	// 300,000 lines of 9 bytes, then 270,000 lines of 10 bytes: 2,700,000
	// bytes each, so a line's place in one is another line in the other.
	lines := func(n int, format string) []byte {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, format, i)
		}
		return []byte(b.String())
	}
	oldData, newData := lines(300_000, "o%07d\n"), lines(270_000, "n%08d\n")
	if len(oldData) != len(newData) {
		t.Fatalf("sizes %d and %d differ", len(oldData), len(newData))
	}
	path := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(path, oldData, 0o644); err != nil {
		t.Fatal(err)
	}
	res := call(t, cs, "read", map[string]any{"path": path, "offset": 200_000, "limit": 2})
	if res.IsError || !strings.HasPrefix(text(res), "o0200000\no0200001") {
		t.Fatalf("first read: %q", text(res))
	}

	// The replacement: same size, same mtime, moved over the first.
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	next := filepath.Join(dir, "next.txt")
	if err := os.WriteFile(next, newData, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(next, time.Time{}, fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, path); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(path); fi2.Size() != fi.Size() || !fi2.ModTime().Equal(fi.ModTime()) {
		t.Fatalf("the replacement differs in size or mtime: %v %v", fi2.Size(), fi2.ModTime())
	}

	res = call(t, cs, "read", map[string]any{"path": path, "offset": 200_000, "limit": 2})
	got := text(res)
	if res.IsError || !strings.HasPrefix(got, "n00200000\nn00200001") {
		t.Errorf("read of the replaced file at 200000 shows other lines: %q", got)
	}
	if total := field(details(t, res), "total_lines"); total != 270_000.0 {
		t.Errorf("total_lines = %v, want the new file's 270000", total)
	}
	if !strings.Contains(got, "270000") || strings.Contains(got, "300000") {
		t.Errorf("the notice gives the old file's total: %q", got)
	}
}
