package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// walkPaths returns what Walk yields, directories with a trailing '/'.
func walkPaths(t *testing.T, root string, opt WalkOptions) []string {
	t.Helper()
	var got []string
	err := Walk[struct{}](context.Background(), root, opt, nil, func(e Entry, _ struct{}) bool {
		if e.Err != nil {
			t.Errorf("%s: %v", e.Rel, e.Err)
		}
		p := e.Rel
		if e.IsDir() {
			p += "/"
		}
		got = append(got, p)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestWalkOrderIsSortedPathOrder(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a-b/x": "", "a/x": "", "a/y/z": "", "a0": "", "a.txt": "", "B": "", "b": "",
		"z/": "", ".hidden": "", "_u": "", "a/.git/config": "", ".git/HEAD": "",
	})
	got := walkPaths(t, root, WalkOptions{Dirs: true})
	want := []string{".hidden", "B", "_u", "a-b/", "a-b/x", "a.txt", "a/", "a/x", "a/y/", "a/y/z", "a0", "b", "z/"}
	if !slices.Equal(got, want) {
		t.Errorf("walk order\n got %q\nwant %q", got, want)
	}
	if !slices.IsSorted(got) {
		t.Errorf("not in `sort` order: %q", got)
	}
}

func TestWalkDeterministicAcrossWorkers(t *testing.T) {
	root := t.TempDir()
	tree := map[string]string{}
	for i := range 300 {
		tree[fmt.Sprintf("d%d/s%d/f%03d.txt", i%7, i%5, i)] = "x"
	}
	writeTree(t, root, tree)
	first := walkPaths(t, root, WalkOptions{Workers: 1, Dirs: true})
	for _, w := range []int{2, 8, 32} {
		for range 5 {
			if got := walkPaths(t, root, WalkOptions{Workers: w, Dirs: true}); !slices.Equal(got, first) {
				t.Fatalf("workers=%d: a different walk", w)
			}
		}
	}
	if len(first) != 300+7+7*5 {
		t.Errorf("%d entries, want %d", len(first), 300+7+35)
	}
}

// TestWalkSymlinkLoop: symlinks to directories, including loops, are
// entries of their own and are never followed.
func TestWalkSymlinkLoop(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"dir/file.txt": "needle"})
	for link, target := range map[string]string{
		"dir/self": ".", "dir/up": "..", "dir/abs": root, "loop-a": "loop-b", "loop-b": "loop-a", "file-link": "dir/file.txt",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan []string)
	go func() { done <- walkPaths(t, root, WalkOptions{Dirs: true}) }()
	select {
	case got := <-done:
		want := []string{"dir/", "dir/abs", "dir/file.txt", "dir/self", "dir/up", "file-link", "loop-a", "loop-b"}
		if !slices.Equal(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the walk does not end on a symlink loop")
	}
	// grep reads only the real file; find shows the links as entries.
	s := New(Config{Cwd: root})
	if r, err := s.Grep(context.Background(), query(t, "needle", tool.GrepInput{})); err != nil || shown(r.Lines) != "dir/file.txt:1: needle" {
		t.Errorf("grep: %v %q", err, shown(r.Lines))
	}
	if r, err := s.Find(context.Background(), tool.FindInput{Pattern: "*", Type: TypeDir}); err != nil || shown(r.Lines) != "dir/" {
		t.Errorf("find dirs: %v %q", err, shown(r.Lines))
	}
}

// TestWalkStopsEarly: once visit says stop, no more work is started than
// the lookahead allows, and every goroutine has ended when Walk returns.
func TestWalkStopsEarly(t *testing.T) {
	root := t.TempDir()
	defer func(old int) { lookahead = old }(lookahead)
	lookahead = 8 // a tree several times the lookahead stays small
	tree := map[string]string{}
	const n = 2400
	for i := range n {
		tree[fmt.Sprintf("d%02d/f%04d", i%40, i)] = ""
	}
	writeTree(t, root, tree)
	before := runtime.NumGoroutine()
	var worked atomic.Int64
	visits := 0
	err := Walk(context.Background(), root, WalkOptions{Workers: 4}, func(ctx context.Context, e Entry) int {
		worked.Add(1)
		return 1
	}, func(e Entry, v int) bool {
		visits++
		return visits < 3
	})
	if err != nil {
		t.Fatal(err)
	}
	if visits != 3 {
		t.Errorf("%d visits after stop", visits)
	}
	// At most lookahead batches, plus one per worker, run ahead.
	if w := worked.Load(); w > int64((lookahead+4+2)*batchSize) {
		t.Errorf("work ran on %d of %d files after the walk was stopped at the third", w, n)
	}
	waitGoroutines(t, before)
}

func waitGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > want {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left, want %d\n%s", runtime.NumGoroutine(), want, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestWalkCancel(t *testing.T) {
	root := t.TempDir()
	tree := map[string]string{}
	for i := range 1200 {
		tree[fmt.Sprintf("d%02d/f%04d", i%30, i)] = "x"
	}
	writeTree(t, root, tree)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	visits := 0
	err := Walk(ctx, root, WalkOptions{}, func(ctx context.Context, e Entry) bool { return true }, func(e Entry, _ bool) bool {
		visits++
		if visits == 10 {
			cancel()
		}
		return true
	})
	if err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if visits > 10 {
		t.Errorf("%d visits after cancel", visits)
	}
	waitGoroutines(t, before)

	// grep and find say they were stopped.
	s := New(Config{Cwd: root})
	_, err = s.Grep(ctx, query(t, "x", tool.GrepInput{}))
	if err == nil || !strings.Contains(err.Error(), "stopped before it finished") {
		t.Errorf("grep after cancel: %+v", err)
	}
	if _, err := s.Find(ctx, tool.FindInput{Pattern: "*"}); err == nil {
		t.Errorf("find after cancel: no error")
	}
}

// TestWalkFilesDeletedDuringWalk: files and directories removed while the
// search runs are passed over without an error or a notice.
func TestWalkFilesDeletedDuringWalk(t *testing.T) {
	for round := range 3 {
		root := t.TempDir()
		tree := map[string]string{}
		for i := range 600 {
			tree[fmt.Sprintf("d%02d/sub/f%04d.txt", i%30, i)] = "needle\n"
		}
		writeTree(t, root, tree)
		s := New(Config{Cwd: root})
		stop := make(chan struct{})
		removed := make(chan struct{})
		go func() {
			defer close(removed)
			for i := 29; i >= 0; i-- {
				select {
				case <-stop:
					return
				default:
				}
				os.RemoveAll(filepath.Join(root, fmt.Sprintf("d%02d", i)))
			}
		}()
		r, err := s.Grep(context.Background(), query(t, "needle", tool.GrepInput{OutputMode: ModeCount, Limit: 10000}))
		close(stop)
		<-removed
		if err != nil || r.SkippedCount != 0 {
			t.Fatalf("round %d: %v %q", round, err, r.Skipped)
		}
	}
}

// TestWalkPanicIsItsError: a panic in the walk's work (a bug) is Walk's
// error and stops the walk; before, it ended the process.
func TestWalkPanicIsItsError(t *testing.T) {
	dir := t.TempDir()
	for i := range 200 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", i)), []byte("x"), 0o644)
	}
	work := func(_ context.Context, e Entry) int {
		if e.Rel == "f100" {
			panic("work broke")
		}
		return 1
	}
	err := Walk(context.Background(), dir, WalkOptions{Workers: 4}, work, func(Entry, int) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "work broke") {
		t.Fatalf("Walk: %v", err)
	}
}

// TestWalkFilesOfManyDirectoriesInOrder: files of many small directories
// (batched together across directories), hidden entries among them, each
// visited in path order with the result of work on that very entry.
func TestWalkFilesOfManyDirectoriesInOrder(t *testing.T) {
	root := t.TempDir()
	tree := map[string]string{}
	var want []string
	for i := range 120 {
		for j := range i%4 + 1 {
			rel := fmt.Sprintf("d%03d/s%d/f%d", i, i%3, j)
			tree[rel] = "x"
			want = append(want, rel)
		}
	}
	writeTree(t, root, tree)
	slices.Sort(want)
	hide := func(path string) string {
		if strings.HasSuffix(path, "7"+string(filepath.Separator)+"s1") || strings.HasSuffix(path, "f2") {
			return "hidden"
		}
		return ""
	}
	for _, workers := range []int{1, 2, 8} {
		var got []string
		work := func(_ context.Context, e Entry) string { return e.Rel }
		err := Walk(context.Background(), root, WalkOptions{Workers: workers, Hide: hide}, work, func(e Entry, v string) bool {
			switch {
			case e.Hidden != "":
				got = append(got, "hidden "+e.Rel)
			case v != e.Rel:
				t.Errorf("workers=%d: %s visited with the result of %s", workers, e.Rel, v)
			default:
				got = append(got, e.Rel)
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		var wantHere []string
		for _, rel := range want {
			switch {
			case strings.Contains(rel, "7/s1/"):
				if strings.HasSuffix(rel, "/f0") {
					wantHere = append(wantHere, "hidden "+strings.TrimSuffix(rel, "/f0"))
				}
			case strings.HasSuffix(rel, "f2"):
				wantHere = append(wantHere, "hidden "+rel)
			default:
				wantHere = append(wantHere, rel)
			}
		}
		if !slices.Equal(got, wantHere) {
			t.Errorf("workers=%d: walk\n got %q\nwant %q", workers, got, wantHere)
		}
	}
}
