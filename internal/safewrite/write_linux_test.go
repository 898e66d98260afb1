package safewrite

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/spillway-dev/spillway/internal/testfs"
)

func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func text(s string) Fill {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestNewFileModeAndParents(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	res, err := Write(openRoot(t, dir), "a/b/new.txt", text("hi\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || res.Mode.Perm() != 0o640 || read(t, filepath.Join(dir, "a/b/new.txt")) != "hi\n" {
		t.Fatalf("%+v", res)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "a/b")); fi.Mode().Perm() != 0o750 {
		t.Errorf("parent mode %v", fi.Mode())
	}
	leftovers(t, filepath.Join(dir, "a/b"))
}

func leftovers(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), TempPrefix) || strings.HasPrefix(e.Name(), SidecarPrefix) {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestKeepsModeOwnerXattrs(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("old\n"), 0o600)
	if os.Geteuid() == 0 {
		os.Chown(p, 1234, 5678)
	}
	os.Chmod(p, 0o751|os.ModeSetgid)
	xattr := unix.Setxattr(p, "user.note", []byte("kept"), 0) == nil
	res, err := Write(openRoot(t, dir), "f", text("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode() != 0o751|os.ModeSetgid {
		t.Errorf("mode %v", fi.Mode())
	}
	if st := fi.Sys().(*syscall.Stat_t); os.Geteuid() == 0 && (st.Uid != 1234 || st.Gid != 5678 || !res.OwnerKept) {
		t.Errorf("owner %d:%d, %+v", st.Uid, st.Gid, res)
	}
	if xattr {
		buf := make([]byte, 16)
		n, err := unix.Getxattr(p, "user.note", buf)
		if err != nil || string(buf[:n]) != "kept" || res.XattrsKept < 1 {
			t.Errorf("xattr %q %v %+v", buf[:n], err, res)
		}
	}
	if read(t, p) != "new\n" || res.InPlace {
		t.Errorf("%+v", res)
	}
	leftovers(t, dir)
}

func TestHardLinkWrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "f"), filepath.Join(dir, "g")
	os.WriteFile(p, []byte("old content that is long\n"), 0o644)
	os.Link(p, q)
	res, err := Write(openRoot(t, dir), "f", text("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !res.InPlace || read(t, q) != "new\n" || read(t, p) != "new\n" {
		t.Fatalf("%+v %q", res, read(t, q))
	}
	leftovers(t, dir)
}

// A directory of the path swapped for a symlink that leads out while the
// file is written: the write stays in the directory it opened.
func TestSymlinkSwappedMidWrite(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub/f"), []byte("old\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "f"), []byte("outside\n"), 0o644)
	_, err := Write(openRoot(t, dir), "sub/f", func(w io.Writer) error {
		io.WriteString(w, "new")
		if err := os.Rename(filepath.Join(dir, "sub"), filepath.Join(dir, "sub.moved")); err != nil {
			return err
		}
		if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
			return err
		}
		_, err := io.WriteString(w, "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(outside, "f")) != "outside\n" {
		t.Fatal("the write went through the swapped symlink")
	}
	if read(t, filepath.Join(dir, "sub.moved/f")) != "new\n" {
		t.Error("the write is not in the directory it opened")
	}
	// The file itself swapped for a symlink: the rename replaces the link.
	os.Remove(filepath.Join(dir, "sub"))
	os.WriteFile(filepath.Join(dir, "g"), []byte("old\n"), 0o644)
	_, err = Write(openRoot(t, dir), "g", func(w io.Writer) error {
		os.Remove(filepath.Join(dir, "g"))
		os.Symlink(filepath.Join(outside, "f"), filepath.Join(dir, "g"))
		_, err := io.WriteString(w, "new\n")
		return err
	})
	if read(t, filepath.Join(outside, "f")) != "outside\n" {
		t.Fatalf("the write followed the swapped symlink (%v)", err)
	}
}

func TestDiskFullLeavesOldFile(t *testing.T) {
	dir := testfs.Small(t, "64k")
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte("old\n"), 0o644)
	_, err := Write(openRoot(t, dir), "f", text(strings.Repeat("x", 1<<20)))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("got %v, want ENOSPC", err)
	}
	if read(t, p) != "old\n" {
		t.Fatal("the old file changed")
	}
	leftovers(t, dir)
	// In place (hard-linked): the allocation fails before a byte is written.
	os.Link(p, filepath.Join(dir, "g"))
	_, err = Write(openRoot(t, dir), "f", text(strings.Repeat("y", 40<<10)))
	if err == nil || read(t, p) != "old\n" {
		t.Fatalf("got %v, file %q", err, read(t, p))
	}
}

// kill -9 in the middle of a write leaves the old file whole.
func TestKillMidWrite(t *testing.T) {
	if os.Getenv("SAFEWRITE_CHILD") != "" {
		Write(openRoot(t, os.Getenv("SAFEWRITE_CHILD")), "f", func(w io.Writer) error {
			w.Write([]byte(strings.Repeat("new\n", 1<<18)))
			w.(interface{ Flush() error }).Flush()
			os.Stdout.WriteString("mid\n")
			select {}
		})
		return
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	old := strings.Repeat("old\n", 1<<16)
	os.WriteFile(p, []byte(old), 0o644)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidWrite$")
	cmd.Env = append(os.Environ(), "SAFEWRITE_CHILD="+dir)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "mid\n" {
		t.Fatalf("child: %q %v", buf, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if read(t, p) != old {
		t.Fatal("the file is not the old one whole after kill -9")
	}
}

// inPlaceChild, in a child process, writes the hard-linked file f of dir
// in place with the content of the file $SAFEWRITE_INPLACE_NEW and stops for good once the in-place copy
// has written stopAt bytes, saying "mid" on stdout: the parent kills it
// there with SIGKILL.
func inPlaceChild(dir string, stopAt int64) {
	InPlaceHook = func(n int64) {
		if n >= stopAt {
			os.Stdout.WriteString("mid\n")
			select {}
		}
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		panic(err)
	}
	b, err := os.ReadFile(os.Getenv("SAFEWRITE_INPLACE_NEW"))
	if err != nil {
		panic(err)
	}
	_, err = Write(r, "f", text(string(b)))
	panic(fmt.Sprintf("the write ended: %v", err))
}

// killInPlace runs inPlaceChild on dir and kills it (SIGKILL) once it
// has written stopAt bytes of the file in place.
func killInPlace(t *testing.T, dir, newContent string, stopAt int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidInPlaceWrite$")
	src := filepath.Join(t.TempDir(), "new")
	if err := os.WriteFile(src, []byte(newContent), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), "SAFEWRITE_INPLACE_CHILD="+dir, "SAFEWRITE_INPLACE_NEW="+src, fmt.Sprintf("SAFEWRITE_INPLACE_STOP=%d", stopAt))
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "mid\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child: %q %v", buf, err)
	}
	cmd.Process.Kill()
	cmd.Wait()
}

// kill -9 in the middle of an in-place write (a hard-linked file) leaves
// the file a mix of new and old bytes, and its old content whole in the
// sidecar beside it; Pending finds it by the file's identity and tells
// what the file holds, Write refuses to write the file again until the
// sidecar is dealt with, and a file put back from the sidecar is seen as
// untouched. Stopped after the last byte (before the sidecar is
// removed), the file is seen as finished.
func TestKillMidInPlaceWrite(t *testing.T) {
	if dir := os.Getenv("SAFEWRITE_INPLACE_CHILD"); dir != "" {
		n, _ := strconv.ParseInt(os.Getenv("SAFEWRITE_INPLACE_STOP"), 10, 64)
		inPlaceChild(dir, n)
		return
	}
	dir := t.TempDir()
	p, q := filepath.Join(dir, "f"), filepath.Join(dir, "g")
	old := strings.Repeat("old\n", 1<<18)  // 1 MiB
	newC := strings.Repeat("NEW\n", 1<<18) // 1 MiB, so the first chunk leaves a mix
	os.WriteFile(p, []byte(old), 0o644)
	if err := os.Link(p, q); err != nil {
		t.Fatal(err)
	}
	killInPlace(t, dir, newC, 1)
	now := read(t, p)
	if now == old || now == newC || !strings.HasPrefix(now, "NEW\n") || !strings.HasSuffix(now, "old\n") {
		t.Fatalf("the file is not a mix after the kill (%d bytes, starts %q)", len(now), now[:8])
	}
	r := openRoot(t, dir)
	fi, _ := os.Stat(q)
	in, err := Pending(r, "g", fi) // found through the other name too
	if err != nil || in == nil {
		t.Fatalf("Pending: %v %v", in, err)
	}
	if in.State != Mixed || read(t, filepath.Join(dir, in.Old)) != old || in.OldSHA256 != sum(old) || in.NewSHA256 != sum(newC) || in.NowSHA256 != sum(now) || in.Name != "f" || in.Links != 2 {
		t.Fatalf("%+v", in)
	}
	if read(t, filepath.Join(dir, in.New)) != newC {
		t.Error("the new content is not whole in its temporary file")
	}
	var ie *InterruptedError
	if _, err := Write(r, "f", text("other\n")); !errors.As(err, &ie) || read(t, p) != now {
		t.Fatalf("a write over the interrupted file: %v", err)
	}
	// Put back from the sidecar in place (cp keeps the links): untouched.
	if err := os.WriteFile(q, []byte(read(t, filepath.Join(dir, in.Old))), 0o644); err != nil {
		t.Fatal(err)
	}
	if in, err = Pending(r, "f", fi); err != nil || in.State != Untouched {
		t.Fatalf("after the restore: %+v %v", in, err)
	}
	if err := in.Clear(r); err != nil {
		t.Fatal(err)
	}
	if in, err := Pending(r, "f", fi); in != nil || err != nil {
		t.Fatalf("after Clear: %+v %v", in, err)
	}
	leftovers(t, dir)

	// Stopped once the last byte is written, the sidecar not yet removed.
	longer := newC + "more\n"
	killInPlace(t, dir, longer, int64(len(longer)))
	if in, err = Pending(r, "f", fi); err != nil || in == nil || in.State != Finished || read(t, q) != longer {
		t.Fatalf("stopped at the end: %+v %v", in, err)
	}
	in.Clear(r)
	if _, err := Write(r, "f", text("last\n")); err != nil || read(t, q) != "last\n" {
		t.Fatalf("%v %q", err, read(t, q))
	}
	leftovers(t, dir)
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// Two calls of one process writing the same hard-linked file in place:
// the second is refused while the first runs, and is not taken for an
// interrupted write.
func TestInPlaceWriteBusyInThisProcess(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	os.WriteFile(p, []byte(strings.Repeat("old\n", 1<<15)), 0o644)
	os.Link(p, filepath.Join(dir, "g"))
	r := openRoot(t, dir)
	var inner error
	var live bool
	InPlaceHook = func(n int64) {
		InPlaceHook = nil
		_, inner = Write(r, "g", text("other\n"))
		fi, _ := os.Stat(p)
		in, _ := Pending(r, "f", fi)
		live = in != nil && in.Live
	}
	defer func() { InPlaceHook = nil }()
	if _, err := Write(r, "f", text(strings.Repeat("new\n", 1<<15))); err != nil {
		t.Fatal(err)
	}
	if inner == nil || !strings.Contains(inner.Error(), "right now") || !live {
		t.Fatalf("the second write: %v; Pending saw it live: %v", inner, live)
	}
	if read(t, p) != strings.Repeat("new\n", 1<<15) {
		t.Fatal("the first write did not end whole")
	}
	leftovers(t, dir)
}
