package spill

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/spillway-dev/spillway/output"
)

// A File is one spill file. It implements output.Spill. Writes past the
// per-file cap are dropped and reported with output.ErrSpillCapped;
// writes past the session's budget stop the file with a BudgetError.
type File struct {
	store    *Store
	w        WriteFile
	name     string // in the store's directory
	path     string
	cap      int64
	size     int64
	finished bool
	closed   bool
	err      error
	named    atomic.Int64 // when a result last named the file (UnixNano)
	done     int64        // when the file was finished (UnixNano)
	// forgotten: no history record needs the file any more.
	forgotten bool
}

// lastUse is when the file was last finished or named (UnixNano).
func (f *File) lastUse() int64 { return max(f.done, f.named.Load()) }

var _ output.Spill = (*File)(nil)

// Path returns the file's path. A result names the file by asking it, so
// the budget leaves the file alone for Config.KeepNamed from then on: a
// model must be able to open a file a result has just given it.
func (f *File) Path() string {
	f.named.Store(time.Now().UnixNano())
	return f.path
}

// A BudgetError stops a spill file that would take the session's spill
// files past their budget when no older file may be deleted.
type BudgetError struct {
	Budget int64
	Size   int64 // what the file holds
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("the session's spill files reached their %s budget, so this one stopped at %s (the files being written and those results named recently are kept). Raise the spill budget_bytes, or run the command again with its output narrowed",
		output.FormatSize(e.Budget), output.FormatSize(e.Size))
}

// Write appends p up to the cap and within the session's budget.
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
	want := int64(len(p))
	grant := f.store.reserve(want)
	over := grant < want
	p = p[:grant]
	n, err := f.w.Write(p)
	if n < len(p) {
		f.store.release(int64(len(p) - n))
	}
	f.size += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err == nil && over {
		err = &BudgetError{Budget: f.store.cfg.BudgetBytes, Size: f.size}
	}
	if err != nil {
		f.err = f.byPath(err)
		return n, f.err
	}
	if capped {
		return n, output.ErrSpillCapped
	}
	return n, nil
}

// Close closes the file. A finished file may be deleted by the budget,
// oldest first, once no result has named it for Config.KeepNamed.
func (f *File) Close() error {
	f.store.mu.Lock()
	defer f.store.mu.Unlock()
	return f.closeLocked()
}

func (f *File) closeLocked() error {
	if !f.finished {
		f.finished, f.done = true, time.Now().UnixNano()
	}
	if f.closed {
		return nil
	}
	f.closed = true
	return f.byPath(f.w.Close())
}

// byPath makes an error of the file name it by its path (f.path), which
// results give: the file's own name is that of its directory when it was
// opened, and a session's directory is opened under a name it is renamed
// from (.spillway-new-…). A file Config.OpenFile opened elsewhere keeps
// its own name.
func (f *File) byPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path != f.path && filepath.Base(pe.Path) == filepath.Base(f.path) {
		return &fs.PathError{Op: pe.Op, Path: f.path, Err: pe.Err}
	}
	return err
}
