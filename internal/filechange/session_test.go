package filechange

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/textedit"
)

var ctx = context.Background()

func newSession(t *testing.T) (*Session, string) {
	t.Helper()
	dir := t.TempDir()
	jdir := t.TempDir()
	n := 0
	return New(Config{Cwd: dir, Journal: func(name string) (io.WriteCloser, string, error) {
		n++
		p := filepath.Join(jdir, name)
		f, err := os.Create(p)
		return f, p, err
	}}), dir
}

func put(t *testing.T, p, s string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustContain(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

func TestEditDetailsAndDiff(t *testing.T) {
	s, dir := newSession(t)
	p := filepath.Join(dir, "f.txt")
	put(t, p, "one\r\ntwo\r\nthree\r\n")
	var d bytes.Buffer
	ch, err := s.Edit(ctx, "f.txt", []textedit.Edit{{OldString: "two\n", NewString: "2\nzwei\n"}}, &d)
	if err != nil {
		t.Fatal(err)
	}
	if get(t, p) != "one\r\n2\r\nzwei\r\nthree\r\n" {
		t.Fatalf("%q", get(t, p))
	}
	if ch.Added != 2 || ch.Removed != 1 || ch.BytesBefore != 17 || ch.BytesAfter != 21 || ch.SHA256Before == "" || ch.SHA256After == ch.SHA256Before || ch.Op != "update" {
		t.Errorf("%+v", ch)
	}
	if !strings.Contains(d.String(), "@@ -1,3 +1,4 @@") || !strings.Contains(d.String(), "+zwei") || !strings.HasPrefix(d.String(), "--- a/f.txt\n+++ b/f.txt\n") {
		t.Errorf("diff %q", d.String())
	}
}

func TestEditsAllOrNothing(t *testing.T) {
	s, dir := newSession(t)
	p := filepath.Join(dir, "f")
	put(t, p, "a\nb\nc\n")
	_, err := s.Edit(ctx, "f", []textedit.Edit{{OldString: "a", NewString: "A"}, {OldString: "zzz", NewString: "Z"}}, nil)
	mustContain(t, err, "edits[1].old_string", "nothing was changed")
	if get(t, p) != "a\nb\nc\n" {
		t.Fatal("the file changed")
	}
	_, err = s.Edit(ctx, "f", []textedit.Edit{{OldString: "\n", NewString: "x"}}, nil)
	mustContain(t, err, "Found 3 occurrences", "lines 1, 2, 3")
}

func TestStaleByContent(t *testing.T) {
	s, dir := newSession(t)
	p := filepath.Join(dir, "f")
	put(t, p, "a\n")
	real, _ := filepath.EvalSymlinks(p)
	s.Saw(real, sum([]byte("a\n")), 2)
	put(t, p, "b\n")
	// The same mtime would not help an mtime check; content decides.
	_, err := s.Edit(ctx, "f", []textedit.Edit{{OldString: "b", NewString: "c"}}, nil)
	var se *StaleError
	if !errors.As(err, &se) {
		t.Fatalf("got %v", err)
	}
	mustContain(t, err, "changed since this session read it", "read it again")
	_, err = s.Write(ctx, "f", "x", "", nil)
	if !errors.As(err, &se) || get(t, p) != "b\n" {
		t.Fatalf("got %v", err)
	}
	// Read again: allowed.
	s.Saw(real, sum([]byte("b\n")), 2)
	if _, err := s.Edit(ctx, "f", []textedit.Edit{{OldString: "b", NewString: "c"}}, nil); err != nil {
		t.Fatal(err)
	}
	// What the session wrote counts as seen.
	if _, err := s.Edit(ctx, "f", []textedit.Edit{{OldString: "c", NewString: "d"}}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestWriteUnseenNeedsHash(t *testing.T) {
	s, dir := newSession(t)
	p := filepath.Join(dir, "f")
	put(t, p, "old\n")
	_, err := s.Write(ctx, "f", "new\n", "", nil)
	mustContain(t, err, "has not read it", "expected_sha256")
	_, err = s.Write(ctx, "f", "new\n", strings.Repeat("0", 64), nil)
	mustContain(t, err, "is not the file's")
	if get(t, p) != "old\n" {
		t.Fatal("changed")
	}
	ch, err := s.Write(ctx, "f", "new\n", sum([]byte("old\n")), nil)
	if err != nil || get(t, p) != "new\n" || ch.Op != "update" {
		t.Fatalf("%v %+v", err, ch)
	}
	// A new file needs nothing; its parents are made.
	ch, err = s.Write(ctx, "a/b/c.txt", "x", "", nil)
	if err != nil || ch.Op != "create" || get(t, filepath.Join(dir, "a/b/c.txt")) != "x" {
		t.Fatalf("%v %+v", err, ch)
	}
	_, err = s.Write(ctx, "nope.txt", "x", sum([]byte("y")), nil)
	mustContain(t, err, "does not exist, yet expected_sha256")
}

func TestWriteKeepsBOMAndCRLF(t *testing.T) {
	s, dir := newSession(t)
	p := filepath.Join(dir, "f")
	put(t, p, "\uFEFFa\r\nb\r\n")
	if _, err := s.Write(ctx, "f", "x\ny\n", sum([]byte("\uFEFFa\r\nb\r\n")), nil); err != nil {
		t.Fatal(err)
	}
	if get(t, p) != "\uFEFFx\r\ny\r\n" {
		t.Fatalf("%q", get(t, p))
	}
}

func TestSymlinkTargetEditedLinkKept(t *testing.T) {
	s, dir := newSession(t)
	put(t, filepath.Join(dir, "real.txt"), "a\n")
	os.Symlink("real.txt", filepath.Join(dir, "link.txt"))
	if _, err := s.Edit(ctx, "link.txt", []textedit.Edit{{OldString: "a", NewString: "b"}}, nil); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(filepath.Join(dir, "link.txt")); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if get(t, filepath.Join(dir, "real.txt")) != "b\n" {
		t.Fatal("the target was not edited")
	}
}

func TestBinaryRefused(t *testing.T) {
	s, dir := newSession(t)
	put(t, filepath.Join(dir, "b"), "a\x00b")
	_, err := s.Edit(ctx, "b", []textedit.Edit{{OldString: "a", NewString: "c"}}, nil)
	mustContain(t, err, "not a text file")
	_, err = s.Edit(ctx, "missing", []textedit.Edit{{OldString: "a", NewString: "c"}}, nil)
	mustContain(t, err, "does not exist")
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	_, err = s.Edit(ctx, "d", []textedit.Edit{{OldString: "a", NewString: "c"}}, nil)
	mustContain(t, err, "is a directory")
}

func TestPatchAllOrNothing(t *testing.T) {
	s, dir := newSession(t)
	put(t, filepath.Join(dir, "a"), "1\n")
	put(t, filepath.Join(dir, "b"), "2\n")
	_, err := s.ApplyPatch(ctx, "*** Begin Patch\n*** Update File: a\n@@\n-1\n+one\n*** Delete File: b\n*** Add File: c\n+x\n*** Update File: b\n@@\n-nope\n+x\n*** End Patch", nil)
	mustContain(t, err, "nothing was changed")
	if get(t, filepath.Join(dir, "a")) != "1\n" || get(t, filepath.Join(dir, "b")) != "2\n" {
		t.Fatal("changed")
	}
	if _, err := os.Stat(filepath.Join(dir, "c")); err == nil {
		t.Fatal("c was created")
	}
}

func TestJournalUndo(t *testing.T) {
	s, dir := newSession(t)
	p := filepath.Join(dir, "f")
	put(t, p, "a\nb\n")
	ch, err := s.Edit(ctx, "f", []textedit.Edit{{OldString: "b", NewString: "B"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var shown bytes.Buffer
	if err := s.Show(ch.Journal, &shown); err != nil || !strings.Contains(shown.String(), "+B") {
		t.Fatalf("%v %q", err, shown.String())
	}
	put(t, p, "changed\n")
	_, err = s.Undo(ctx, ch.Journal, nil)
	mustContain(t, err, "changed since the change wrote it")
	put(t, p, "a\nB\n")
	if _, err := s.Undo(ctx, ch.Journal, nil); err != nil {
		t.Fatal(err)
	}
	if get(t, p) != "a\nb\n" {
		t.Fatalf("%q", get(t, p))
	}
	// A patch that deleted and created files is undone whole.
	put(t, filepath.Join(dir, "g"), "g\n")
	chs, err := s.ApplyPatch(ctx, "*** Begin Patch\n*** Delete File: g\n*** Add File: h\n+h\n*** End Patch", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(ctx, chs[0].Journal, nil); err != nil {
		t.Fatal(err)
	}
	if get(t, filepath.Join(dir, "g")) != "g\n" {
		t.Fatal("g not restored")
	}
	if _, err := os.Stat(filepath.Join(dir, "h")); err == nil {
		t.Fatal("h not removed")
	}
	_, err = s.Undo(ctx, 99, nil)
	mustContain(t, err, "no journal entry 99")
}

// A file over the in-memory limit is edited by streaming: the result,
// the diff and the undo are those of a small file.
func TestBigFileStreamed(t *testing.T) {
	s, dir := newSession(t)
	s.cfg.MaxInMemory = 1 << 20
	var b strings.Builder
	for i := 0; b.Len() < 3<<20; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("x", i%50))
		b.WriteString("\n")
	}
	orig := b.String() + "the needle line\n" + b.String()
	p := filepath.Join(dir, "big")
	put(t, p, orig)
	var d bytes.Buffer
	ch, err := s.Edit(ctx, "big", []textedit.Edit{{OldString: "needle", NewString: "thread"}}, &d)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(orig, "needle", "thread", 1)
	if get(t, p) != want {
		t.Fatal("wrong content")
	}
	line := strings.Count(b.String(), "\n") + 1
	if !strings.Contains(d.String(), "-the needle line\n+the thread line\n") || !strings.Contains(d.String(), "@@ -"+itoa(line-3)+",7 +"+itoa(line-3)+",7 @@") {
		t.Fatalf("diff %q", d.String())
	}
	if ch.Added != 1 || ch.Removed != 1 || ch.SHA256After != sum([]byte(want)) || ch.SHA256Before != sum([]byte(orig)) {
		t.Errorf("%+v", ch)
	}
	if _, err := s.Undo(ctx, ch.Journal, nil); err != nil {
		t.Fatal(err)
	}
	if get(t, p) != orig {
		t.Fatal("undo did not restore")
	}
	// Ambiguous: nothing written.
	_, err = s.Edit(ctx, "big", []textedit.Edit{{OldString: "line", NewString: "x"}}, nil)
	mustContain(t, err, "Found")
	if get(t, p) != orig {
		t.Fatal("changed")
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestEditFile edits the file SPILLWAY_EDIT_FILE once, replacing
// SPILLWAY_EDIT_OLD by SPILLWAY_EDIT_NEW: bench/edit.sh times it beside
// sed -i on a 1 GiB file.
func TestEditFile(t *testing.T) {
	p := os.Getenv("SPILLWAY_EDIT_FILE")
	if p == "" {
		t.Skip("bench/edit.sh sets SPILLWAY_EDIT_FILE")
	}
	s := New(Config{Cwd: filepath.Dir(p)})
	var d bytes.Buffer
	ch, err := s.Edit(ctx, p, []textedit.Edit{{OldString: os.Getenv("SPILLWAY_EDIT_OLD"), NewString: os.Getenv("SPILLWAY_EDIT_NEW")}}, &d)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v\n%s", ch, d.String())
}

// A patch that touches a file over the in-memory limit, in any way, is
// refused whole with the figures and what to use instead; nothing
// changes, the small file it also changes included.
func TestPatchRefusesFileOverInMemoryLimit(t *testing.T) {
	s, dir := newSession(t)
	s.cfg.MaxInMemory = 1 << 20
	big := strings.Repeat("a line of a big file\n", (2<<20)/21+1)
	put(t, filepath.Join(dir, "big"), big)
	put(t, filepath.Join(dir, "small"), "one\ntwo\n")
	s.Saw(filepath.Join(dir, "big"), sum([]byte(big)), int64(len(big)))
	small := "*** Update File: small\n@@\n-one\n+ONE\n"
	for _, c := range []struct{ hunk, instead string }{
		{"*** Update File: big\n@@\n-a line of a big file\n+changed\n", "change it with edit, one old_string a call"},
		{"*** Delete File: big\n", "delete it with bash (rm)"},
		{"*** Update File: small\n*** Move to: big\n@@\n-two\n+2\n", "move the file with bash (mv)"},
		{"*** Add File: big\n+new\n", "use write to replace it whole"},
	} {
		patch := "*** Begin Patch\n" + small + c.hunk + "*** End Patch"
		if strings.Contains(c.hunk, "Move to") {
			patch = "*** Begin Patch\n" + c.hunk + "*** End Patch"
		}
		_, err := s.ApplyPatch(ctx, patch, nil)
		mustContain(t, err, "big is 2.0MB, over the 1.0MB apply_patch holds in memory")
		mustContain(t, err, "nothing was changed")
		mustContain(t, err, c.instead)
		if get(t, filepath.Join(dir, "big")) != big || get(t, filepath.Join(dir, "small")) != "one\ntwo\n" {
			t.Fatalf("%q: a file changed", c.hunk)
		}
	}
}
