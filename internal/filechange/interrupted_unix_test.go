//go:build unix

package filechange

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/safewrite"
	"github.com/spillway-dev/spillway/internal/textedit"
)

// interruptedChild, in a child process, writes the hard-linked file f of
// $FILECHANGE_INPLACE_CHILD through a Session with the content of the
// file $FILECHANGE_INPLACE_NEW, and stops for good once the in-place
// copy has written $FILECHANGE_INPLACE_STOP bytes, saying "mid".
func interruptedChild(dir string) {
	stop, _ := strconv.ParseInt(os.Getenv("FILECHANGE_INPLACE_STOP"), 10, 64)
	safewrite.InPlaceHook = func(n int64) {
		if n >= stop {
			os.Stdout.WriteString("mid\n")
			select {}
		}
	}
	b, err := os.ReadFile(os.Getenv("FILECHANGE_INPLACE_NEW"))
	if err != nil {
		panic(err)
	}
	old, err := os.ReadFile(filepath.Join(dir, "f"))
	if err != nil {
		panic(err)
	}
	s := New(Config{Cwd: dir})
	_, err = s.Write(ctx, "f", string(b), sum(old), nil)
	panic(fmt.Sprintf("the write ended: %v", err))
}

// interruptWrite has a child process write the hard-linked file f of dir
// through the file tools' engine and kills it (SIGKILL) in the middle of
// the in-place copy, after its first chunk.
func interruptWrite(t *testing.T, dir, newContent string) {
	t.Helper()
	stopWrite(t, dir, newContent)()
}

// stopWrite is interruptWrite, except that the child is left stopped in
// the middle of the copy, alive, until the function it returns kills it.
func stopWrite(t *testing.T, dir, newContent string) (kill func()) {
	t.Helper()
	src := filepath.Join(t.TempDir(), "new")
	if err := os.WriteFile(src, []byte(newContent), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledInPlaceWriteIsNamedByTheNextChange$")
	cmd.Env = append(os.Environ(), "FILECHANGE_INPLACE_CHILD="+dir, "FILECHANGE_INPLACE_NEW="+src, "FILECHANGE_INPLACE_STOP=1")
	cmd.Stderr = os.Stderr
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "mid\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child: %q %v", buf, err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// A write of a hard-linked file (written in place) killed with SIGKILL
// part way: the next change of the file, in a new session, says what
// happened and where the old content is, whole, and changes nothing;
// write with expected_sha256 of what the file holds now replaces it and
// keeps the old content in a file it names; a file put back from the
// copy is changed as usual, the leftovers removed with a note.
func TestKilledInPlaceWriteIsNamedByTheNextChange(t *testing.T) {
	if dir := os.Getenv("FILECHANGE_INPLACE_CHILD"); dir != "" {
		interruptedChild(dir)
		return
	}
	dir := t.TempDir()
	p, q := filepath.Join(dir, "f"), filepath.Join(dir, "other-name")
	// Few long lines, so that the diffs stay small: 16 lines of 16 KiB.
	old := "first old line\n" + strings.Repeat(strings.Repeat("o", 16<<10)+"\n", 16)
	newC := strings.Repeat(strings.Repeat("N", 16<<10)+"\n", 16)
	put(t, p, old)
	if err := os.Link(p, q); err != nil {
		t.Fatal(err)
	}
	// While the writer is alive (stopped in the copy), the next change
	// is told the write may still be going on, and leaves all as it is.
	kill := stopWrite(t, dir, newC)
	s := New(Config{Cwd: dir})
	_, err := s.Edit(ctx, "f", []textedit.Edit{{OldString: "first old line\n", NewString: "x\n"}}, nil)
	mustContain(t, err, "being written in place right now", "still running", "Nothing was changed")
	kill()
	mixed := get(t, p)
	if mixed == old || mixed == newC {
		t.Fatal("the file is not mixed after the kill")
	}
	var ie *InterruptedError
	_, err = s.Edit(ctx, "f", []textedit.Edit{{OldString: "first old line\n", NewString: "x\n"}}, nil)
	if !errors.As(err, &ie) {
		t.Fatalf("edit of the mixed file: %v", err)
	}
	t.Logf("the refusal: %v", err)
	mustContain(t, err, "interrupted", "Nothing was changed", ie.Old, "cp ", "expected_sha256 "+sum([]byte(mixed)))
	if get(t, ie.Old) != old {
		t.Fatal("the sidecar does not hold the old content whole")
	}
	if ie.New == "" || get(t, ie.New) != newC {
		t.Error("the new content is not named whole")
	}
	if _, err := s.ApplyPatch(ctx, "*** Begin Patch\n*** Delete File: other-name\n*** End Patch", nil); !errors.As(err, &ie) {
		t.Errorf("a patch deleting the other name: %v", err)
	}
	if _, err := s.Write(ctx, "f", "w\n", "", nil); !errors.As(err, &ie) {
		t.Errorf("write without expected_sha256: %v", err)
	}
	if _, err := s.Write(ctx, "f", "w\n", sum([]byte(old)), nil); !errors.As(err, &ie) {
		t.Errorf("write with the old hash: %v", err)
	}
	if get(t, p) != mixed {
		t.Fatal("a refused call changed the file")
	}
	// Replaced knowingly: the old content stays, in a file the note names.
	ch, err := s.Write(ctx, "f", "w\n", sum([]byte(mixed)), nil)
	if err != nil || get(t, q) != "w\n" {
		t.Fatalf("write with expected_sha256 of the mixed file: %v", err)
	}
	note := strings.Join(ch.Notes, "\n")
	i := strings.Index(note, dir+"/")
	if i < 0 {
		t.Fatalf("no note names the kept old content: %q", ch.Notes)
	}
	kept := strings.Fields(note[i:])[0]
	if get(t, kept) != old {
		t.Errorf("%s does not hold the old content", kept)
	}
	os.Remove(kept)
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("leftovers: %v", ents)
	}

	// Put back from the copy: the next change goes ahead, and says so.
	put(t, p, old)
	interruptWrite(t, dir, newC)
	_, err = s.Edit(ctx, "f", []textedit.Edit{{OldString: "x", NewString: "y"}}, nil)
	if !errors.As(err, &ie) {
		t.Fatalf("%v", err)
	}
	f, err := os.OpenFile(q, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(get(t, ie.Old))
	f.Close()
	ch, err = s.Edit(ctx, "other-name", []textedit.Edit{{OldString: "first old line\n", NewString: "first\n"}}, nil)
	if err != nil || !strings.Contains(strings.Join(ch.Notes, "\n"), "leftovers") {
		t.Fatalf("edit after the restore: %v %q", err, ch.Notes)
	}
	if got := get(t, p); got != "first\n"+old[len("first old line\n"):] {
		t.Errorf("the edit through the other name: %d bytes", len(got))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("leftovers: %v", ents)
	}
}
