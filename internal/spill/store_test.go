package spill

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/output"
)

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A session store makes nothing until a file is needed; then a 0700
// directory named after the pid and 0600 files named after the call.
func TestSessionLazyPrivate(t *testing.T) {
	tmp := t.TempDir()
	s := NewSession(Config{TempDir: tmp})
	defer s.Close()
	if s.Dir() != "" {
		t.Fatalf("Dir() = %q before any file", s.Dir())
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("store made %d entries before any file", len(entries))
	}
	f, err := s.Opener("bash", 12, "stdout")()
	if err != nil {
		t.Fatal(err)
	}
	dir := s.Dir()
	if !strings.HasPrefix(filepath.Base(dir), fmt.Sprintf("spillway-%d-", os.Getpid())) || filepath.Dir(dir) != tmp {
		t.Fatalf("dir %q", dir)
	}
	if got := mode(t, dir); got != 0o700 {
		t.Fatalf("dir mode %o", got)
	}
	if f.Path() != filepath.Join(dir, "bash-12-stdout.log") {
		t.Fatalf("path %q", f.Path())
	}
	if got := mode(t, f.Path()); got != 0o600 {
		t.Fatalf("file mode %o", got)
	}
	if !s.Owns(f.Path()) || s.Owns(filepath.Join(tmp, "other.log")) || s.Owns(dir+"-x/a.log") {
		t.Fatal("Owns is wrong")
	}
}

// Written as it arrives: what was written is on disk before Close.
func TestWrittenAsItArrives(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir()})
	defer s.Close()
	f, err := s.Create("bash-1-stdout.log")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("first\n"))
	if got := readFile(t, f.Path()); got != "first\n" {
		t.Fatalf("on disk before Close: %q", got)
	}
	f.Close()
}

// Files are created with O_EXCL: a name is never reused or followed.
func TestCreateExclusive(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir()})
	defer s.Close()
	if _, err := s.Create("bash-1-stdout.log"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create("bash-1-stdout.log"); !errors.Is(err, os.ErrExist) {
		t.Fatalf("second Create: %v, want ErrExist", err)
	}
	// A symlink planted under the name is not followed.
	target := filepath.Join(t.TempDir(), "target")
	os.Symlink(target, filepath.Join(s.Dir(), "bash-2-stdout.log"))
	if _, err := s.Create("bash-2-stdout.log"); err == nil {
		t.Fatal("Create followed a planted symlink")
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("symlink target was created")
	}
	// A failed Opener returns a nil Spill, not a nil *File in an interface.
	sp, err := s.Opener("bash", 1, "stdout")()
	if err == nil || sp != nil {
		t.Fatalf("Opener on an existing name = %v, %v", sp, err)
	}
	if NextSeq := s.NextSeq(); NextSeq != 1 || s.NextSeq() != 2 {
		t.Fatal("NextSeq does not count from 1")
	}
}

// The per-file cap keeps the first MaxFileBytes and reports
// ErrSpillCapped; the pipeline's notice names the cap.
func TestFileCap(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir(), MaxFileBytes: 1000})
	defer s.Close()
	f, err := s.Create("raw.log")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.Write(make([]byte, 600)); n != 600 || err != nil {
		t.Fatalf("first write %d, %v", n, err)
	}
	if n, err := f.Write(make([]byte, 600)); n != 400 || !errors.Is(err, output.ErrSpillCapped) {
		t.Fatalf("write past the cap %d, %v", n, err)
	}
	f.Close()
	if fi, _ := os.Stat(f.Path()); fi.Size() != 1000 {
		t.Fatalf("file holds %d bytes", fi.Size())
	}

	var in strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&in, "%d\n", i)
	}
	p := output.New(output.Options{Limits: output.Limits{Strategy: output.Tail, MaxLines: 10, MaxBytes: 100}, Spill: s.Opener("bash", 2, "stdout")})
	p.Write([]byte(in.String()))
	p.Close()
	r := p.Result()
	if got := readFile(t, r.FullOutputPath); got != in.String()[:1000] {
		t.Fatalf("capped file holds %d bytes", len(got))
	}
	want := "[stdout: showing lines 991-1000 of 1000. Full output: " + r.FullOutputPath + " (full output capped at 1000B). To see what was cut: read it with offset=1 limit=990]"
	if r.Notice("stdout") != want || !r.SpillCapped {
		t.Fatalf("notice %q", r.Notice("stdout"))
	}
}

// The session budget counts the files being written: a write that would
// pass it first deletes the oldest finished files, and what still does not
// fit is refused with a BudgetError, so the files never hold more than the
// budget together. Deleted names what went.
func TestBudget(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir(), BudgetBytes: 250, KeepNamed: time.Nanosecond})
	defer s.Close()
	var files []*File
	for i := range 3 {
		f, err := s.Create(fmt.Sprintf("f%d.log", i))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	files[0].Write(make([]byte, 100))
	files[1].Write(make([]byte, 100))
	// 300 bytes asked, nothing finished: the third file stops at 50.
	n, err := files[2].Write(make([]byte, 100))
	var be *BudgetError
	if n != 50 || !errors.As(err, &be) || be.Budget != 250 || be.Size != 50 {
		t.Fatalf("write past the budget: %d, %v", n, err)
	}
	if _, err := files[2].Write([]byte("x")); !errors.As(err, &be) {
		t.Fatalf("write after the stop: %v", err)
	}
	gone := func(f *File) bool {
		_, err := os.Stat(f.Path())
		cause, deleted := s.Deleted(f.Path())
		return errors.Is(err, os.ErrNotExist) && deleted && cause == CauseBudget
	}
	for _, f := range files {
		if gone(f) {
			t.Fatalf("%s deleted while being written", f.Path())
		}
	}
	files[0].Close()
	files[1].Close()
	f3, _ := s.Create("f3.log")
	if n, err := f3.Write(make([]byte, 60)); n != 60 || err != nil { // the oldest finished goes
		t.Fatalf("write after a file finished: %d, %v", n, err)
	}
	if !gone(files[0]) || gone(files[1]) || gone(files[2]) || gone(f3) {
		t.Fatal("wrong files deleted")
	}
	if _, deleted := s.Deleted(filepath.Join(s.Dir(), "never.log")); deleted {
		t.Fatal("Deleted reports a file that never was")
	}
	if got := onDisk(t, s.Dir()); got > 250 {
		t.Fatalf("%d bytes on disk, budget 250", got)
	}
}

// A file a result named recently is kept from the budget, and so is the
// newest file: the model must be able to open what it was just given.
func TestBudgetKeepsNamedAndNewest(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir(), BudgetBytes: 250, KeepNamed: time.Hour})
	defer s.Close()
	write := func(name string, n int) *File {
		f, err := s.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(make([]byte, n))
		return f
	}
	named := write("named.log", 100)
	namedPath := named.Path() // a result names it
	named.Close()
	live := write("live.log", 0)
	newest := write("newest.log", 100)
	newest.Close()
	// 200 used; live needs 100: neither the named nor the newest may go.
	if n, err := live.Write(make([]byte, 100)); n != 50 || err == nil {
		t.Fatalf("write: %d, %v; want 50 and a BudgetError", n, err)
	}
	for _, p := range []string{namedPath, filepath.Join(s.Dir(), "newest.log")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s deleted: %v", p, err)
		}
	}
}

// A file its history forgets stays while it is young (finished or named
// less than KeepNamed ago), then goes, with the history as its cause; the
// budget may still take it meanwhile, with the budget as its cause.
func TestForgetKeepsYoungFiles(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir(), KeepNamed: time.Hour})
	defer s.Close()
	f, _ := s.Create("young.log")
	f.Write([]byte("x\n"))
	f.Close()
	s.Forget(f.Path())
	if _, err := os.Stat(f.Path()); err != nil {
		t.Fatalf("a young forgotten file was deleted: %v", err)
	}
	if _, deleted := s.Deleted(f.Path()); deleted {
		t.Fatal("a young forgotten file is said deleted")
	}

	s.cfg.KeepNamed = time.Nanosecond // now it is old
	time.Sleep(time.Millisecond)
	s.Create("next.log") // the next file sweeps it
	if _, err := os.Stat(f.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an old forgotten file was kept: %v", err)
	}
	if cause, _ := s.Deleted(f.Path()); cause != CauseHistory {
		t.Errorf("cause %q, want %q", cause, CauseHistory)
	}

	g, _ := s.Create("other.log")
	g.Close()
	s.Remove(g.Path(), CauseUnsaved)
	if cause, _ := s.Deleted(g.Path()); cause != CauseUnsaved {
		t.Errorf("cause %q, want %q", cause, CauseUnsaved)
	}
}

func onDisk(t *testing.T, dir string) int64 {
	t.Helper()
	var total int64
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			info, _ := e.Info()
			total += info.Size()
		}
		return nil
	})
	return total
}

// Close removes the session directory and ends the store.
func TestCloseRemovesDir(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir()})
	f, err := s.Create("a.log")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("data"))
	dir := s.Dir()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("dir still there: %v", err)
	}
	if _, err := s.Create("b.log"); err == nil {
		t.Fatal("Create after Close succeeded")
	}
	if _, err := f.Write([]byte("more")); err == nil {
		t.Fatal("Write to a file of a closed store succeeded")
	}
	// A store that never made its directory closes cleanly.
	if err := NewSession(Config{TempDir: t.TempDir()}).Close(); err != nil {
		t.Fatal(err)
	}
}

// The sweep removes a session directory only if it can take the lock its
// session holds for its whole life. A live session whose pid looks dead
// from here (another PID namespace, or a reused pid) is left alone.
func TestSweep(t *testing.T) {
	tmp := t.TempDir()
	live := NewSession(Config{TempDir: tmp})
	defer live.Close()
	if _, err := live.Create("bash-1-stdout.log"); err != nil {
		t.Fatal(err)
	}
	// Its pid looks dead: rename it to one no process has.
	liveDir := filepath.Join(tmp, "spillway-99999999-0a1b2c")
	if err := os.Rename(live.Dir(), liveDir); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(tmp, fmt.Sprintf("spillway-%d-0a1b2d", os.Getpid())) // our pid, no lock
	cli := filepath.Join(tmp, fmt.Sprintf("spillway-%d", os.Getuid()))
	other := filepath.Join(tmp, "spillwayish-99999999-x")
	// A workspace of the user's that only starts like a session directory
	// (the soak's was swept away under it by other servers' starts).
	workspace := filepath.Join(tmp, "spillway-soak-2309626635")
	for _, d := range []string{dead, cli, other, workspace} {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "bash-1-stdout.log"), []byte("x"), 0o600)
	}
	// A file (not a directory) with a session name is left alone, and so
	// is a symlink with one.
	os.WriteFile(filepath.Join(tmp, "spillway-99999998-abc"), nil, 0o600)
	os.Symlink(dead, filepath.Join(tmp, "spillway-99999997-abc"))

	removed := Sweep(tmp)
	if len(removed) != 1 || removed[0] != dead {
		t.Fatalf("Sweep removed %v, want only %s", removed, dead)
	}
	for _, d := range []string{liveDir, cli, other, workspace, filepath.Join(tmp, "spillway-99999998-abc")} {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("%s removed", d)
		}
	}
	// Once the session ends, its lock is free. (Close left the directory:
	// the name it made no longer leads to it.)
	live.Close()
	if removed := Sweep(tmp); len(removed) != 1 || removed[0] != liveDir {
		t.Fatalf("second sweep removed %v, want %s", removed, liveDir)
	}
}

// The CLI store keeps its files across runs, in $TMPDIR/spillway-<uid>/cli.
func TestCLIKeepsFiles(t *testing.T) {
	tmp := t.TempDir()
	s := NewCLI(Config{TempDir: tmp})
	want := filepath.Join(tmp, fmt.Sprintf("spillway-%d", os.Getuid()), "cli")
	f, err := s.Opener("bash", 1, "stdout")()
	if err != nil {
		t.Fatal(err)
	}
	if s.Dir() != want {
		t.Fatalf("Dir() = %q, want %q", s.Dir(), want)
	}
	f.Write([]byte("kept\n"))
	f.Close()
	s.Close()
	if got := readFile(t, f.Path()); got != "kept\n" {
		t.Fatalf("file after Close: %q", got)
	}
	if !strings.HasPrefix(filepath.Base(f.Path()), "bash-1-stdout-") || mode(t, want) != 0o700 || mode(t, filepath.Dir(want)) != 0o700 || mode(t, f.Path()) != 0o600 {
		t.Fatalf("path %q, modes %o %o %o", f.Path(), mode(t, want), mode(t, filepath.Dir(want)), mode(t, f.Path()))
	}
	// A second run, same seq: a different file.
	s2 := NewCLI(Config{TempDir: tmp})
	f2, err := s2.Opener("bash", 1, "stdout")()
	if err != nil || f2.Path() == f.Path() {
		t.Fatalf("second run: %v, %q", err, f2.Path())
	}
	s2.Close()
}

// The CLI store prunes files older than 24 hours, then the oldest while
// the directory is over budget.
func TestCLIPrunes(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, fmt.Sprintf("spillway-%d", os.Getuid()), "cli")
	os.MkdirAll(dir, 0o700)
	now := time.Now()
	write := func(name string, size int, age time.Duration) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, make([]byte, size), 0o600)
		os.Chtimes(p, now.Add(-age), now.Add(-age))
		return p
	}
	stale := write("stale.log", 10, 25*time.Hour)
	oldest := write("oldest.log", 100, 3*time.Hour)
	older := write("older.log", 100, 2*time.Hour)
	recent := write("recent.log", 100, time.Hour)

	s := NewCLI(Config{TempDir: tmp, BudgetBytes: 250})
	f, err := s.Create("bash-1-stdout.log")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for p, kept := range map[string]bool{stale: false, oldest: false, older: true, recent: true, f.Path(): true} {
		if _, err := os.Stat(p); (err == nil) != kept {
			t.Errorf("%s: kept=%v, want %v", filepath.Base(p), err == nil, kept)
		}
	}
}

// A shared directory another user owns is refused: nothing is written
// there, and the error says what to do.
func TestCLIRefusesForeignDir(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to make a directory owned by another user")
	}
	tmp := t.TempDir()
	parent := filepath.Join(tmp, fmt.Sprintf("spillway-%d", os.Getuid()))
	os.MkdirAll(filepath.Join(parent, "cli"), 0o777)
	os.Chown(parent, 12345, 12345)
	s := NewCLI(Config{TempDir: tmp})
	_, err := s.Create("bash-1-stdout.log")
	if err == nil || !strings.Contains(err.Error(), "belongs to uid 12345") {
		t.Fatalf("Create in a foreign dir: %v", err)
	}
}

// A CLI directory others can enter is made private again.
func TestCLIMakesDirPrivate(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, fmt.Sprintf("spillway-%d", os.Getuid()), "cli")
	os.MkdirAll(dir, 0o755)
	os.Chmod(dir, 0o755)
	s := NewCLI(Config{TempDir: tmp})
	if _, err := s.Create("a.log"); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, dir); got != 0o700 {
		t.Fatalf("mode %o", got)
	}
}

// failingFile is a WriteFile whose writes fail after limit bytes.
type failingFile struct {
	n, limit int
	err      error
}

func (f *failingFile) Write(p []byte) (int, error) {
	if f.n+len(p) > f.limit {
		k := f.limit - f.n
		f.n = f.limit
		return k, f.err
	}
	f.n += len(p)
	return len(p), nil
}
func (f *failingFile) Close() error { return nil }

var _ io.Writer = (*failingFile)(nil)

// Many streams of one session spill at once under a tight budget: the
// race detector sees the store's locking, and the budget holds.
func TestConcurrentFiles(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir(), BudgetBytes: 64 << 10, MaxFileBytes: 32 << 10})
	defer s.Close()
	done := make(chan error)
	for g := range 8 {
		go func() {
			var err error
			for i := range 20 {
				f, e := s.Opener("bash", s.NextSeq(), fmt.Sprintf("g%d", g))()
				if e != nil {
					err = e
					break
				}
				for range 10 {
					var be *BudgetError
					if _, e := f.Write(make([]byte, 4000+i)); e != nil && !errors.Is(e, output.ErrSpillCapped) && !errors.As(e, &be) {
						err = e
					}
				}
				f.Close()
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if total := onDisk(t, s.Dir()); total > 64<<10 {
		t.Fatalf("%d bytes on disk, budget %d", total, 64<<10)
	}
}
