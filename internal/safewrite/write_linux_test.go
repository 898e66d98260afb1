package safewrite

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
		if strings.HasPrefix(e.Name(), TempPrefix) {
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
