package safewrite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sync"
	"time"
)

// SidecarPrefix begins the names of the files an in-place write keeps
// beside the file while it overwrites it: NAME.old, the old content
// whole, and NAME.json, the record that says which file it is (by device
// and inode) and where the new content is. Both are removed when the
// write ends; a kill -9 or a crash in the middle leaves them, and the
// next change of the file finds them (Pending).
const SidecarPrefix = ".spillway-inplace-"

// A record is what the .json sidecar holds.
type record struct {
	// Name is the file's name in its directory, the one written through.
	Name string `json:"name"`
	Dev  uint64 `json:"dev"`
	Ino  uint64 `json:"ino"`
	// Links is the file's link count when the write began.
	Links   uint64 `json:"links"`
	OldSize int64  `json:"old_size"`
	// New is the temporary file holding the new content whole, in the
	// same directory.
	New     string    `json:"new"`
	NewSize int64     `json:"new_size"`
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
}

func sidecarName(dev, ino uint64) string {
	return fmt.Sprintf("%s%d-%d", SidecarPrefix, dev, ino)
}

// active holds the sidecars of the in-place writes going on in this
// process (by sidecarName): a file another session of the same server
// is writing is not taken for one whose write was interrupted.
var active sync.Map

// InPlaceHook, when set (by tests only), is called after each chunk an
// in-place write copies into the file, with the bytes written so far:
// a test stops the process there to leave a file half written.
var InPlaceHook func(written int64)

// writeInPlace copies the synced temporary file tmp (named tmpName) into
// the file name, whose metadata is old, so that every hard link sees the
// new content. Nothing is lost at any moment: first the old content is
// copied whole to a sidecar beside the file (synced, with its record),
// then the file's new size is allocated, so that a full disk fails
// before a byte is overwritten; then the file is overwritten and synced,
// and the sidecar removed. If the copy fails part way, the old content
// is copied back from the sidecar.
func writeInPlace(parent *os.Root, name string, old fs.FileInfo, tmp *os.File, tmpName string, size int64) error {
	dev, ino, ok := identity(old)
	if !ok {
		return errors.New("the file has no device and inode to name its sidecar by")
	}
	dst, err := parent.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer dst.Close()
	now, err := dst.Stat()
	if err != nil {
		return err
	}
	if d, i, _ := identity(now); d != dev || i != ino {
		return errors.New("the file was replaced by another while it was being written: nothing was written; try again")
	}
	side := sidecarName(dev, ino)
	if _, busy := active.LoadOrStore(side, true); busy {
		return errors.New("another call of this server is writing the file in place right now: nothing was written; try again once it ends")
	}
	defer active.Delete(side)
	if err := keepOld(parent, name, side, record{Name: name, Dev: dev, Ino: ino, Links: links(old), New: tmpName, NewSize: size, PID: os.Getpid(), Started: time.Now().UTC()}); err != nil {
		return err
	}
	clear := func() {
		parent.Remove(side + ".json")
		parent.Remove(side + ".old")
	}
	if err := allocate(dst, size); err != nil {
		clear()
		return fmt.Errorf("allocate %d bytes: %w", size, err)
	}
	if err := copyInto(dst, tmp, size); err != nil {
		// Put the old content back; if that fails too, the sidecar
		// stays and the next change of the file says where it is.
		src, oerr := parent.Open(side + ".old")
		if oerr == nil {
			fi, serr := src.Stat()
			if serr == nil && copyInto(dst, src, fi.Size()) == nil {
				src.Close()
				clear()
				return fmt.Errorf("%w (the old content was put back)", err)
			}
			src.Close()
		}
		return fmt.Errorf("%w; the file may hold part of the new content: its old content is whole in %s", err, side+".old")
	}
	clear()
	return nil
}

// copyInto overwrites dst from the start with size bytes of src (read
// from its start), cuts dst to size and syncs it.
func copyInto(dst, src *os.File, size int64) error {
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if _, err := dst.Seek(0, io.SeekStart); err != nil {
		return err
	}
	var w io.Writer = dst
	if InPlaceHook != nil {
		w = &hookWriter{w: dst, hook: InPlaceHook}
	}
	if _, err := io.Copy(w, io.LimitReader(src, size)); err != nil {
		return err
	}
	if err := dst.Truncate(size); err != nil {
		return err
	}
	return dst.Sync()
}

type hookWriter struct {
	w    io.Writer
	n    int64
	hook func(int64)
}

func (h *hookWriter) Write(p []byte) (int, error) {
	n, err := h.w.Write(p)
	h.n += int64(n)
	h.hook(h.n)
	return n, err
}

// keepOld copies the file name whole to the sidecar side.old and writes
// its record side.json, each through a temporary name, synced, then
// renamed, the directory synced after each: a record on disk always
// means a whole copy beside it.
func keepOld(parent *os.Root, name, side string, rec record) error {
	src, err := parent.Open(name)
	if err != nil {
		return err
	}
	defer src.Close()
	tmp := TempPrefix + side + ".old." + randomHex(6)
	f, err := parent.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("make the sidecar that keeps the old content: %w", err)
	}
	n, err := io.Copy(f, src)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = parent.Rename(tmp, side+".old")
	}
	if err != nil {
		parent.Remove(tmp)
		return fmt.Errorf("keep the old content in a sidecar (nothing was written): %w", err)
	}
	if err := syncDir(parent); err != nil {
		parent.Remove(side + ".old")
		return fmt.Errorf("sync the sidecar's directory (nothing was written): %w", err)
	}
	rec.OldSize = n
	b, _ := json.MarshalIndent(rec, "", "  ")
	tmp = TempPrefix + side + ".json." + randomHex(6)
	f, err = parent.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = f.Write(append(b, '\n'))
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = parent.Rename(tmp, side+".json")
		}
		if err == nil {
			err = syncDir(parent)
		}
	}
	if err != nil {
		parent.Remove(tmp)
		parent.Remove(side + ".json")
		parent.Remove(side + ".old")
		return fmt.Errorf("write the sidecar's record (nothing was written): %w", err)
	}
	return nil
}

// State is what an interrupted in-place write left the file as.
type State int

const (
	// Untouched: the file still holds its old content whole (the write
	// stopped before overwriting it, or the old content was put back).
	Untouched State = iota
	// Finished: the file holds the new content whole (the write stopped
	// after it, before removing its sidecar).
	Finished
	// Mixed: the file holds something else, most likely part of the new
	// content over the old (or it was changed since).
	Mixed
)

// An Interrupted is an in-place write that did not end: its sidecar is
// still beside the file. Paths are relative to the root given to Pending.
type Interrupted struct {
	// Old is the sidecar with the old content whole; Record its record.
	Old, Record string
	// New is the temporary file with the new content whole ("" when it
	// is gone).
	New string
	// Name is the file name the write went through, PID the process
	// that wrote, Started when, Links the link count then.
	Name    string
	PID     int
	Started time.Time
	Links   uint64
	// The hashes and sizes of the old content, the new one (when New is
	// there) and what the file holds now.
	OldSHA256, NewSHA256, NowSHA256 string
	OldSize, NewSize, NowSize       int64
	State                           State
	// Live is true when the write may still be going on: this process
	// is writing the file, or the process that wrote the record is
	// still running (or its pid was taken by another since).
	Live bool
}

// Pending finds the sidecar an interrupted in-place write of the file
// rel (relative to root; fi is its Lstat or Stat) left, by the file's
// device and inode: nil when there is none, which costs one Lstat. When
// there is one, the old content, the new one and the file are hashed to
// tell what the file holds now.
func Pending(root *os.Root, rel string, fi fs.FileInfo) (*Interrupted, error) {
	dev, ino, ok := identity(fi)
	if !ok || !fi.Mode().IsRegular() {
		return nil, nil
	}
	rel = path.Clean(rel)
	dir := path.Dir(rel)
	side := path.Join(dir, sidecarName(dev, ino))
	if _, err := root.Lstat(side + ".json"); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	b, err := readSmall(root, side+".json")
	if err != nil {
		return nil, fmt.Errorf("read the record of an interrupted in-place write, %s: %w", side+".json", err)
	}
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil || rec.Dev != dev || rec.Ino != ino {
		return nil, fmt.Errorf("%s, the record of an interrupted in-place write of %s, cannot be read (%v): the old content may be in %s; look at both, then remove them", side+".json", rel, err, side+".old")
	}
	in := &Interrupted{Old: side + ".old", Record: side + ".json", Name: rec.Name, PID: rec.PID, Started: rec.Started, Links: rec.Links}
	_, ours := active.Load(sidecarName(dev, ino))
	in.Live = ours || (rec.PID != os.Getpid() && alive(rec.PID))
	if in.OldSHA256, in.OldSize, err = hashFile(root, in.Old); err != nil {
		return nil, fmt.Errorf("an interrupted in-place write of %s left its record %s, but its copy of the old content cannot be read: %w", rel, in.Record, err)
	}
	if rec.New != "" && path.Base(rec.New) == rec.New {
		if sum, n, err := hashFile(root, path.Join(dir, rec.New)); err == nil && n == rec.NewSize {
			in.New, in.NewSHA256, in.NewSize = path.Join(dir, rec.New), sum, n
		}
	}
	if in.NowSHA256, in.NowSize, err = hashFile(root, rel); err != nil {
		return nil, err
	}
	switch in.NowSHA256 {
	case in.OldSHA256:
		in.State = Untouched
	case in.NewSHA256:
		in.State = Finished
	default:
		in.State = Mixed
	}
	return in, nil
}

// Clear removes what the interrupted write left: its record, its copy of
// the old content and its temporary file of the new content.
func (in *Interrupted) Clear(root *os.Root) error {
	err := root.Remove(in.Record)
	if in.New != "" {
		root.Remove(in.New)
	}
	if e := root.Remove(in.Old); err == nil && !errors.Is(e, fs.ErrNotExist) {
		err = e
	}
	return err
}

// SetAside moves the copy of the old content to a name of its own (kept,
// returned) and removes the record, so that the file can be written
// again; put undoes it.
func (in *Interrupted) SetAside(root *os.Root) (kept string, put func() error, err error) {
	kept = in.Old + "-kept-" + time.Now().UTC().Format("20060102T150405")
	if err := root.Rename(in.Old, kept); err != nil {
		return "", nil, err
	}
	rec, err := readSmall(root, in.Record)
	if err == nil {
		err = root.Remove(in.Record)
	}
	if err != nil {
		root.Rename(kept, in.Old)
		return "", nil, err
	}
	put = func() error {
		if err := root.Rename(kept, in.Old); err != nil {
			return err
		}
		return root.WriteFile(in.Record, rec, 0o600)
	}
	return kept, put, nil
}

func readSmall(root *os.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 64<<10))
}

func hashFile(root *os.Root, name string) (string, int64, error) {
	f, err := root.Open(name)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// An InterruptedError refuses an in-place write over a file whose last
// in-place write was interrupted (its sidecar is still there).
type InterruptedError struct {
	Path, Old string
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("an earlier in-place write of %s was interrupted and its old content is kept in %s: nothing was written, so as not to write over it; look at both, then remove the sidecar files %s.old and .json", e.Path, e.Old, e.Old[:len(e.Old)-len(".old")])
}

// Sidecar is the name, in the file's directory, that the sidecar files
// of an in-place write of the file fi begin with (NAME.old, NAME.json):
// a reader can tell with one Lstat of NAME.json that the file's last
// in-place write was interrupted. ok is false where files have no
// identity.
func Sidecar(fi fs.FileInfo) (name string, ok bool) {
	dev, ino, ok := identity(fi)
	if !ok || !fi.Mode().IsRegular() {
		return "", false
	}
	return sidecarName(dev, ino), true
}
