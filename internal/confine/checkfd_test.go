//go:build unix

package confine

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// TestCheckAfterOpen: a caller that opens a resolved path itself (with its
// own flags or raw descriptors) checks the opened file afterwards; a swap
// between its check and its open is refused.
func TestCheckAfterOpen(t *testing.T) {
	root, outside := tree(t)
	write(t, outside+"/b.txt", "secret")
	r := newRoot(t, root)
	real, err := r.Resolve("", "dir/b.txt")
	must(t, err)
	f, err := os.Open(real)
	must(t, err)
	if err := r.CheckFile(f); err != nil {
		t.Fatalf("a file inside: %v", err)
	}
	f.Close()

	must(t, os.Rename(root+"/dir", root+"/dir.old"))
	must(t, os.Symlink(outside, root+"/dir"))
	f, err = os.Open(real) // the caller's own open follows the new symlink
	must(t, err)
	defer f.Close()
	err = r.CheckFile(f)
	oe := refused(t, err, real, root)
	if !oe.Changed || oe.Resolved != outside+"/b.txt" {
		t.Errorf("error %+v", oe)
	}
	fd, err := syscall.Open(real, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	must(t, err)
	defer syscall.Close(fd)
	if err := r.CheckFD(fd, real); !errors.Is(err, ErrOutside) {
		t.Errorf("CheckFD: %v", err)
	}
	var nilRoot *Root
	if nilRoot.CheckFile(f) != nil || nilRoot.CheckFD(fd, real) != nil {
		t.Error("a nil Root refused a file")
	}
}
