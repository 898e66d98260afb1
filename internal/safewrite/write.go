// Package safewrite replaces a file's content so that nothing is lost:
// the new content goes to a temporary file in the same directory, is
// synced, and is renamed over the old file, and the directory is synced;
// a crash at any moment leaves the old file or the new one, whole. The
// old file's mode, its owner (where the process may set it) and its
// extended attributes — POSIX ACLs are among them on Linux — are carried
// over. A file with more than one hard link is written in place instead,
// so that every link sees the new content: only after the new content is
// on disk in the temporary file, the old content is on disk whole in a
// sidecar beside the file (SidecarPrefix) and the file's new size is
// allocated. The sidecar is removed when the write ends; one that a
// crash left is found by Pending, and Write will not write the file in
// place again until it is dealt with.
//
// Every operation goes through an *os.Root of the file's directory, so a
// directory swapped for a symlink after the path was checked cannot
// redirect the write; and the final rename replaces the name itself, so
// a file swapped for a symlink is replaced, never followed.
package safewrite

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// A Result says how a file was written.
type Result struct {
	// Created is true when there was no file before.
	Created bool
	// InPlace is true when the file had other hard links and was written
	// in place.
	InPlace bool
	// Mode is the file's mode now.
	Mode fs.FileMode
	// OwnerKept is false when the old file's owner could not be given to
	// the new one (the process may not chown).
	OwnerKept bool
	// XattrsKept counts the extended attributes carried over;
	// XattrsLost names those that could not be.
	XattrsKept int
	XattrsLost []string
	// Size is the new content's size.
	Size int64
}

// A Fill writes a file's new content to w.
type Fill func(w io.Writer) error

// TempPrefix begins the names of the temporary files Write makes; one
// left by a crash can be recognized and removed.
const TempPrefix = ".spillway-write-"

// Write replaces (or creates) the file rel, relative to root, with what
// fill writes. rel must have no symlink in it (the caller resolved it).
// Parent directories are made as needed (mode 0777 before the umask), a
// new file gets mode 0666 before the umask.
func Write(root *os.Root, rel string, fill Fill) (Result, error) {
	var res Result
	rel = path.Clean(strings.TrimPrefix(rel, "/"))
	parent, dir, base, err := openParent(root, rel)
	if err != nil {
		return res, err
	}
	defer parent.Close()
	old, err := oldFile(parent, base, rel)
	if err != nil {
		return res, err
	}
	res.Created = old == nil
	if err := checkNoSidecar(parent, dir, base, rel, old); err != nil {
		return res, err
	}
	tmp := TempPrefix + base + "." + randomHex(6)
	perm := fs.FileMode(0o666)
	if old != nil {
		perm = old.Mode().Perm()
	}
	f, err := parent.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return res, fmt.Errorf("make a temporary file beside %s: %w", rel, err)
	}
	done := false
	defer func() {
		if !done {
			f.Close()
			parent.Remove(tmp)
		}
	}()
	res.OwnerKept = true
	if old != nil {
		if err := keepMeta(parent, base, f, old, &res); err != nil {
			return res, err
		}
	}
	if res.Size, err = fillFile(f, fill, rel); err != nil {
		return res, err
	}
	if err := f.Sync(); err != nil {
		return res, fmt.Errorf("sync %s: %w", rel, err)
	}
	if err := install(parent, base, tmp, f, old, res.Size, rel); err != nil {
		return res, err
	}
	done = true
	res.InPlace = old != nil && links(old) > 1
	if err := syncDir(parent); err != nil {
		return res, fmt.Errorf("sync the directory of %s: %w", rel, err)
	}
	if st, err := parent.Stat(base); err == nil {
		res.Mode = st.Mode()
	}
	return res, nil
}

// openParent makes the directory of rel (a clean relative path) as
// needed and opens it as a root; it returns the directory and the file's
// name in it.
func openParent(root *os.Root, rel string) (parent *os.Root, dir, base string, err error) {
	dir, base = path.Split(rel)
	if base == "" || base == "." || base == ".." {
		return nil, "", "", fmt.Errorf("%s is not a file name", rel)
	}
	if dir == "" {
		dir = "."
	}
	if err := root.MkdirAll(dir, 0o777); err != nil {
		return nil, "", "", fmt.Errorf("make the directory %s: %w", dir, err)
	}
	parent, err = root.OpenRoot(dir)
	if err != nil {
		return nil, "", "", fmt.Errorf("open the directory %s: %w", dir, err)
	}
	return parent, dir, base, nil
}

// oldFile returns what is at base now: nil when nothing is, and an error
// when it is not a regular file.
func oldFile(parent *os.Root, base, rel string) (fs.FileInfo, error) {
	old, err := parent.Lstat(base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case old.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s changed into a symlink while it was being written: nothing was written; try again", rel)
	case !old.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (%s): only regular files are written", rel, old.Mode().Type())
	}
	return old, nil
}

// checkNoSidecar refuses to write in place a file another write of it is
// writing in place now, or one an earlier in-place write that did not
// end left its old content beside: a new sidecar would take its name.
func checkNoSidecar(parent *os.Root, dir, base, rel string, old fs.FileInfo) error {
	if old == nil || links(old) <= 1 {
		return nil
	}
	dev, ino, ok := identity(old)
	if !ok {
		return nil
	}
	side := sidecarName(dev, ino)
	if _, busy := active.Load(side); busy {
		return fmt.Errorf("another call of this server is writing %s in place right now: nothing was written; try again once it ends", rel)
	}
	if _, err := parent.Lstat(side + ".json"); err == nil {
		return &InterruptedError{Path: rel, Old: path.Join(dir, side+".old")}
	}
	return nil
}

// keepMeta gives the temporary file f the old file's owner, exact mode
// and extended attributes, and says in res what it could keep.
func keepMeta(parent *os.Root, base string, f *os.File, old fs.FileInfo, res *Result) error {
	// The owner first: a chown clears set-id bits. Then the exact mode
	// (the umask took bits from the mode f was created with; set-id and
	// sticky bits are not given by a create).
	res.OwnerKept = keepOwner(f, old)
	if err := f.Chmod(old.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return fmt.Errorf("set the mode of the temporary file: %w", err)
	}
	if src, err := parent.Open(base); err == nil {
		res.XattrsKept, res.XattrsLost = copyXattrs(src, f)
		src.Close()
	}
	return nil
}

// fillFile writes the new content to f through a buffer and returns its
// size.
func fillFile(f *os.File, fill Fill, rel string) (int64, error) {
	w := &countWriter{w: f}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := fill(bw); err != nil {
		return 0, err
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("write %s: %w", rel, err)
	}
	return w.n, nil
}

// install puts the synced temporary file tmp (open as f, size bytes) in
// place of base: renamed over it, or, when the old file has other hard
// links, copied into it in place and then removed.
func install(parent *os.Root, base, tmp string, f *os.File, old fs.FileInfo, size int64, rel string) error {
	if old != nil && links(old) > 1 {
		if err := writeInPlace(parent, base, old, f, tmp, size); err != nil {
			return fmt.Errorf("write %s in place (it has %d hard links): %w", rel, links(old), err)
		}
		f.Close()
		parent.Remove(tmp)
		return nil
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := parent.Rename(tmp, base); err != nil {
		return fmt.Errorf("rename the new %s into place: %w", rel, err)
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func syncDir(r *os.Root) error {
	d, err := r.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
