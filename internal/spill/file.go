package spill

import (
	"io"

	"github.com/spillway-dev/spillway/output"
)

// A File is one spill file. It implements output.Spill. Writes past the
// per-file cap are dropped and reported with output.ErrSpillCapped.
type File struct {
	store    *Store
	w        WriteFile
	path     string
	cap      int64
	size     int64
	finished bool
	closed   bool
	err      error
}

var _ output.Spill = (*File)(nil)

// Path returns the file's path.
func (f *File) Path() string { return f.path }

// Write appends p up to the cap.
func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	room := f.cap - f.size
	capped := false
	if int64(len(p)) > room {
		p = p[:room]
		capped = true
	}
	n, err := f.w.Write(p)
	f.size += int64(n)
	f.store.grow(int64(n))
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		f.err = err
		return n, err
	}
	if capped {
		return n, output.ErrSpillCapped
	}
	return n, nil
}

// Close closes the file. A finished file may be deleted by the budget,
// oldest first, as soon as the session is over it.
func (f *File) Close() error {
	f.store.mu.Lock()
	defer f.store.mu.Unlock()
	err := f.closeLocked()
	f.store.enforceLocked()
	return err
}

func (f *File) closeLocked() error {
	f.finished = true
	if f.closed {
		return nil
	}
	f.closed = true
	return f.w.Close()
}
