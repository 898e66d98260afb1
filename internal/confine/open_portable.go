//go:build !linux || spillway_portable

package confine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// openBeneath opens the resolved path real, which lies under base (the root
// or an allowed directory), through an os.Root of base: it walks the path
// one component at a time from a handle of base and refuses a symlink or
// ".." that leads out, so no component changed since the check can lead
// outside. base itself is opened from its real path; a component of it
// swapped for a symlink since the check is caught by the identity check of
// the opened file (CheckFile) that follows.
func openBeneath(r *Root, b base, real string, flag int) (*os.File, error) {
	rel, err := filepath.Rel(b.dir, real)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: real, Err: err}
	}
	root, err := openBase(b)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: real, Err: err}
	}
	defer root.Close()
	f, err := root.OpenFile(rel, flag, 0o666)
	if err != nil {
		if escaped(err) {
			return nil, &os.PathError{Op: "open", Path: real, Err: errLeftBase}
		}
		return nil, err
	}
	if err := r.CheckFile(f); err != nil {
		f.Close()
		if errors.Is(err, ErrOutside) {
			return nil, &os.PathError{Op: "open", Path: real, Err: errLeftBase}
		}
		return nil, err
	}
	return f, nil
}

// openBase opens an os.Root of the base directory; an allowed directory
// must still be the very one its owner holds.
func openBase(b base) (*os.Root, error) {
	root, err := os.OpenRoot(b.dir)
	if err != nil {
		return nil, err
	}
	if b.id != nil {
		if fi, err := root.Stat("."); err != nil || !os.SameFile(fi, b.id) {
			root.Close()
			return nil, errLeftBase
		}
	}
	return root, nil
}

// escaped reports whether an os.Root refused a path because it leads out
// of the root. os.Root says so with an error that is not a system errno
// (its own "path escapes from parent"); every other failure of an open is
// one.
func escaped(err error) bool {
	var pe *os.PathError
	if !errors.As(err, &pe) {
		return false
	}
	var errno syscall.Errno
	return !errors.As(pe.Err, &errno)
}

// CheckFile verifies that f (opened by the caller from a path it resolved
// with Resolve) really is a file inside the root or an allowed directory:
// a component swapped for a symlink between the check and the caller's
// open is caught here. Without a way to ask the kernel where an open file
// is, the check is by identity: the path is resolved again, and the file
// an os.Root of its base directory finds there (never leaving the base)
// must be the very file that is open — same device, same inode. A file
// moved or replaced since the open is refused too. A nil Root allows every
// file.
func (r *Root) CheckFile(f *os.File) error {
	if r == nil {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	return r.checkSame(f.Name(), func(found fs.FileInfo) bool { return os.SameFile(fi, found) })
}

// checkSame checks that the open file is the one an os.Root finds at path,
// inside the root or an allowed directory: same reports whether the file
// found is the open one.
func (r *Root) checkSame(path string, same func(found fs.FileInfo) bool) error {
	real, err := resolve(joinRaw(r.dir, "", path))
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: errors.New("cannot check where the opened file is: " + err.Error())}
	}
	b, ok := r.base(real)
	if !ok {
		return &OutsideError{Path: path, Root: r.dir, Resolved: real, Changed: true}
	}
	rel, err := filepath.Rel(b.dir, real)
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	root, err := openBase(b)
	if errors.Is(err, errLeftBase) {
		return &OutsideError{Path: path, Root: r.dir, Resolved: real, Changed: true}
	}
	if err != nil {
		return err
	}
	defer root.Close()
	found, err := root.Lstat(rel)
	if err != nil || !same(found) {
		return &OutsideError{Path: path, Root: r.dir, Resolved: real, Changed: true}
	}
	return nil
}
