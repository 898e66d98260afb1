package spill

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// A privateDir is a spill directory held open from the moment it is made
// or checked: every file in it is created and removed through the handle
// (an *os.Root, which never resolves a name outside it), so that the
// directory's path being swapped for a symlink or for another directory
// cannot redirect a spill file. The directory is bound to its identity:
// info is what the handle saw, and a path that no longer leads to the
// same directory is never treated as it.
type privateDir struct {
	path string // real path, symlinks of the temp directory resolved
	root *os.Root
	self *os.File // the directory itself: its flock says a session lives
	info fs.FileInfo
}

// openParent opens dir, the temp directory under which spill directories
// are made, by its real path.
func openParent(dir string) (*os.Root, string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, "", err
	}
	if !filepath.IsAbs(real) {
		if real, err = filepath.Abs(real); err != nil {
			return nil, "", err
		}
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, "", err
	}
	return r, real, nil
}

// openPrivate opens the directory name in parent, making it (0700) if it
// is missing. It refuses — and makes nothing through — a symlink, a
// directory of another user, or one that the handle finds is not the
// directory that was checked. A directory of this user that others may
// enter is made private.
func openPrivate(parent *os.Root, parentPath, name string) (*privateDir, error) {
	path := filepath.Join(parentPath, name)
	if err := parent.Mkdir(name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	before, err := parent.Lstat(name)
	if err != nil {
		return nil, err
	}
	if err := checkOwned(path, before); err != nil {
		return nil, err
	}
	root, err := parent.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	d := &privateDir{path: path, root: root}
	if d.self, err = root.Open("."); err == nil {
		d.info, err = d.self.Stat()
	}
	if err == nil && !os.SameFile(before, d.info) {
		err = fmt.Errorf("%s changed while it was opened; it is not used", path)
	}
	if err == nil && d.info.Mode().Perm()&0o077 != 0 {
		err = d.self.Chmod(0o700)
	}
	if err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// checkOwned refuses what is not a real directory of this user.
func checkOwned(path string, fi fs.FileInfo) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s is a symlink, not a directory; it is not used: remove it or set TMPDIR elsewhere", path)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", path)
	}
	if uid, ok := ownerUID(fi); ok && uid != os.Geteuid() {
		return fmt.Errorf("%s belongs to uid %d, not to this user; it is not used: remove it or set TMPDIR elsewhere", path, uid)
	}
	return nil
}

// create makes the new file name (O_EXCL, never through a symlink, 0600).
func (d *privateDir) create(name string) (*os.File, error) {
	return d.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
}

// removeFrom removes the directory and everything in it through parent,
// if the name in parent still is this directory.
func (d *privateDir) removeFrom(parent *os.Root) error {
	name := filepath.Base(d.path)
	fi, err := parent.Lstat(name)
	if err != nil {
		return err
	}
	if !os.SameFile(fi, d.info) {
		return fmt.Errorf("%s is no longer the session's spill directory; left in place", d.path)
	}
	return parent.RemoveAll(name)
}

func (d *privateDir) close() {
	if d.self != nil {
		d.self.Close()
	}
	d.root.Close()
}
