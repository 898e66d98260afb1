package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spillway-dev/spillway/internal/confine"
)

// An Entry is one file or directory met by Walk.
type Entry struct {
	// Rel is the path relative to the walk root, slash-separated.
	Rel string
	// dir is the path of the entry's directory (the root joined with the
	// directory of Rel); Path joins the two only when it is needed, which
	// for most files of a grep is never.
	dir string
	// Type holds the type bits of the entry (fs.ModeDir, fs.ModeSymlink,
	// …); zero for a regular file. Symlinks are never followed.
	Type fs.FileMode
	// Err is set on a directory that could not be read; its contents are
	// missing from the walk.
	Err error
	// Hidden, set by WalkOptions.Hide, names what hides the entry: it is
	// yielded without work, and a hidden directory is not walked into.
	Hidden string
	// root, when set, is the walk's root, to open Rel below it
	// (openReadAt).
	root *walkRoot
}

// Path is the path to open: the root joined with Rel.
func (e Entry) Path() string {
	if e.dir == "" || e.Rel == "" {
		return e.dir
	}
	name := e.Rel[strings.LastIndexByte(e.Rel, '/')+1:]
	return e.dir + string(filepath.Separator) + name
}

// fileEntry is the entry of the file at path, outside any walk.
func fileEntry(path string) Entry { return Entry{dir: path} }

// IsDir reports whether the entry is a directory (not a symlink to one).
func (e Entry) IsDir() bool { return e.Type.IsDir() }

// WalkOptions configure Walk.
type WalkOptions struct {
	// Workers is the number of goroutines that read directories and run
	// the work function; default GOMAXPROCS.
	Workers int
	// Dirs yields directories as well as the other entries.
	Dirs bool
	// NoIgnore disregards ignore files (.git is still skipped).
	NoIgnore bool
	// Keep, when set, chooses the entries that are yielded (directories
	// it rejects are still walked into). It runs on the walk's own
	// goroutine, before any work is queued for the entry.
	Keep func(Entry) bool
	// Root, when set, is checked against each directory opened, so that
	// a directory swapped for a symlink cannot lead the walk out of it.
	Root *confine.Root
	// Hide, when set, is asked of each entry's path (the root joined
	// with Rel): what it returns ("" for nothing) hides the entry. A
	// hidden file Keep takes, and every hidden directory, is yielded
	// with Entry.Hidden set and no work, so that visit can count it; a
	// hidden directory is never listed.
	Hide func(path string) string
}

// Tuning of the walk. Consecutive files of a directory go to the pool as
// one batch of at most batchSize (one task, one future, one send), so that
// goroutine handoffs cost little per file; at most lookahead batches are
// computed ahead of the visit function; at most dirAhead subdirectories of
// one directory are listed ahead of the walk reaching them.
//
// The visit waits for the batch it is at while the other workers run on,
// until lookahead batches wait for it: a worker held up on its batch (a
// large file, or its thread descheduled on a busy machine) idles the
// others once they are that far ahead. Most directories are small (Go's
// tree has 9 files a directory), so 32 batches were about 300 files, a
// few milliseconds of one core: a fifth of the workers' time went idle
// over Go's tree (runtime/trace). 256 batches hold at most about 1.3 MB,
// and only while the walk is that far ahead. (lookahead is a variable so
// that tests can lower it.)
const (
	batchSize = 32
	dirAhead  = 8
)

var lookahead = 256

// Walk visits the tree below root (a directory) in path order, the order
// of `LC_ALL=C sort` on the paths with a '/' after each directory name. It
// skips .git, entries that ignore files exclude, and the contents of
// directory symlinks (symlinks are never followed, so a symlink loop cannot
// trap it).
//
// Directories are listed and work runs on a pool of goroutines, ahead of
// the visit; visit is called on the caller's goroutine, once per entry in
// order, with work's result for that entry (the zero T for directories and
// when work is nil). Work runs at most lookahead batches of files ahead
// of visit, so memory stays bounded. When visit returns false or ctx ends,
// the walk stops, work in progress sees its context cancelled, and Walk
// returns once every goroutine it started has ended. The error is ctx's.
func Walk[T any](ctx context.Context, root string, opt WalkOptions, work func(context.Context, Entry) T, visit func(Entry, T) bool) error {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wr := openWalkRoot(root)
	defer closeWalkRoot(wr)
	w := &walker[T]{
		root:  wr,
		ctx:   wctx,
		opt:   opt,
		work:  work,
		dirs:  make(chan func(), 4*dirAhead),
		files: make(chan func(), 2*opt.Workers),
		items: make(chan *batch[T], lookahead),
		spare: make(chan *batch[T], lookahead+2*opt.Workers+2),
	}
	var wg sync.WaitGroup
	for range opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer w.guard(cancel)
			w.worker()
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(w.items)
		defer w.guard(cancel)
		defer close(w.dirs)
		defer close(w.files)
		var ig *ignoreNode
		if !opt.NoIgnore {
			ig = ancestorIgnores(root)
		}
		l := w.list(ig, root, "")
		wr.settle()
		if w.walkDir(root, "", l) {
			w.flushLast()
		}
	}()

	for b := range w.items {
		if b.done != nil {
			select {
			case <-b.done:
			case <-wctx.Done():
			}
		}
		if wctx.Err() != nil {
			break
		}
		stop := false
		for i, e := range b.entries {
			if wctx.Err() != nil {
				stop = true
				break
			}
			var v T
			if b.results != nil {
				v = b.results[i]
			}
			if !visit(e, v) {
				stop = true
				break
			}
		}
		if stop {
			break
		}
		w.recycle(b)
	}
	cancel()
	for range w.items { // let the driver finish
	}
	wg.Wait()
	if err := w.panicked.Load(); err != nil {
		return *err
	}
	return ctx.Err()
}

// guard, deferred by each goroutine of the walk, makes a panic of the
// walk (a bug) the walk's error, and stops it, instead of ending the
// process.
func (w *walker[T]) guard(cancel context.CancelFunc) {
	if p := recover(); p != nil {
		err := fmt.Errorf("internal error in the walk (a bug in spillway): %v", p)
		w.panicked.CompareAndSwap(nil, &err)
		cancel()
	}
}

type walker[T any] struct {
	// panicked holds the error of a goroutine of the walk that panicked.
	panicked atomic.Pointer[error]
	root     *walkRoot // nil: entries are opened by path
	ctx      context.Context
	opt      WalkOptions
	work     func(context.Context, Entry) T
	// dirs and files are the pool's queues; directory listings go first.
	dirs, files chan func()
	items       chan *batch[T]
	// spare holds batches of files that visit is done with, for the walk
	// to fill again: a walk reuses a few dozen batches rather than making
	// one for every batchSize files (fresh memory is paid page by page).
	spare chan *batch[T]
	// run is the batch of files the walk is filling (its goroutine's
	// own). It runs on across directories: most are small (Go's tree has
	// 9 files a directory), and a batch per directory made four times the
	// handoffs between the walk, the workers and visit. It is sent when
	// full, before an entry of its own is sent (a directory, a hidden or
	// unread entry), and before the walk waits for a listing, so that
	// the workers never wait for files the walk holds.
	run *batch[T]
}

// A batch is a run of entries on their way to visit, in order, with the
// results of work on them once done is closed (done is nil without work).
type batch[T any] struct {
	entries []Entry
	results []T
	done    chan struct{}
}

// A listing is the sorted, filtered contents of one directory.
type listing struct {
	// abs is the directory's path, made once when it is queued.
	abs     string
	done    chan struct{}
	entries []dirent
	// hide, when any entry is hidden (WalkOptions.Hide), says what
	// hides each entry ("" for nothing); nil when none is.
	hide []string
	ig   *ignoreNode
	err  error
}

// A dirent is one entry of a directory: its path relative to the walk's
// root, made once when the directory is read (its name is the end of it,
// not a string of its own), and its type bits.
type dirent struct {
	rel  string
	base int // rel[base:] is the name
	typ  fs.FileMode
}

func (d dirent) name() string { return d.rel[d.base:] }

func (w *walker[T]) worker() {
	dirs, files := w.dirs, w.files
	for dirs != nil || files != nil {
		// Listings first: the walk waits for them.
		select {
		case t, ok := <-dirs:
			if !ok {
				dirs = nil
				continue
			}
			t()
			continue
		default:
		}
		select {
		case t, ok := <-dirs:
			if !ok {
				dirs = nil
				continue
			}
			t()
		case t, ok := <-files:
			if !ok {
				files = nil
				continue
			}
			t()
		}
	}
}

// submit queues a task, or runs it at once when the walk is over (so
// that every future completes).
func (w *walker[T]) submit(q chan func(), t func()) {
	select {
	case q <- t:
	case <-w.ctx.Done():
		t()
	}
}

// prefetch queues the listing of a directory.
func (w *walker[T]) prefetch(ig *ignoreNode, abs, rel string) *listing {
	l := &listing{abs: abs, done: make(chan struct{})}
	w.submit(w.dirs, func() {
		defer close(l.done)
		if w.ctx.Err() != nil {
			return
		}
		r := w.list(ig, abs, rel)
		l.entries, l.hide, l.ig, l.err = r.entries, r.hide, r.ig, r.err
	})
	return l
}

// list reads, filters and sorts one directory. ig holds the rules that
// apply to it from above.
func (w *walker[T]) list(ig *ignoreNode, abs, rel string) *listing {
	l := &listing{done: closedChan}
	dl := direntLists.Get().(*direntList)
	des, err := readDir(w.root, rel, abs, dl, w.opt.Root)
	direntLists.Put(dl)
	if err != nil {
		l.err = err
		return l
	}
	var hasDot, hasGit, hasRepo bool
	ents := des[:0]
	for _, de := range des {
		switch de.name() {
		case gitDirName:
			hasRepo = hasRepo || de.typ.IsDir()
			continue // never walked, never listed
		case dotIgnoreName:
			hasDot = de.typ.IsRegular()
		case gitIgnoreName:
			hasGit = de.typ.IsRegular()
		}
		ents = append(ents, de)
	}
	l.ig = ig
	if !w.opt.NoIgnore {
		l.ig = dirIgnores(ig, abs, rel, hasDot, hasGit, hasRepo)
	}
	if l.ig != nil {
		kept := ents[:0]
		for _, e := range ents {
			if !l.ig.ignored(e.rel, e.typ.IsDir()) {
				kept = append(kept, e)
			}
		}
		ents = kept
	}
	slices.SortFunc(ents, func(a, b dirent) int {
		return compareNames(a.name(), a.typ.IsDir(), b.name(), b.typ.IsDir())
	})
	l.entries = ents
	if w.opt.Hide != nil {
		for i := range ents {
			if why := w.opt.Hide(abs + string(filepath.Separator) + ents[i].name()); why != "" {
				if l.hide == nil {
					l.hide = make([]string, len(ents))
				}
				l.hide[i] = why
			}
		}
	}
	return l
}

// hidden says what hides entry i, "" for nothing.
func (l *listing) hidden(i int) string {
	if l.hide == nil {
		return ""
	}
	return l.hide[i]
}

var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// compareNames orders two names of one directory as their paths sort when
// a directory's name is followed by '/' (so "a-b/" < "a/" < "a0").
func compareNames(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	return nextByte(a, n, aDir) - nextByte(b, n, bDir)
}

func nextByte(s string, i int, dir bool) int {
	switch {
	case i < len(s):
		return int(s[i])
	case dir:
		return '/'
	default:
		return -1
	}
}

// walkDir yields the contents of one directory, depth first. It returns
// false when the walk is over.
func (w *walker[T]) walkDir(abs, rel string, l *listing) bool {
	if !w.await(l) {
		return false
	}
	if l.err != nil {
		return w.unreadDir(abs, rel, l.err)
	}
	// Subdirectories are listed a few ahead of the walk reaching them.
	ahead := make([]*listing, len(l.entries))
	next, inFlight := w.listAhead(l, abs, ahead, 0, 0)
	for i, e := range l.entries {
		ent := Entry{Rel: e.rel, dir: abs, Type: e.typ, root: w.root}
		ok := true
		switch why := l.hidden(i); {
		case why != "":
			ok = w.hiddenEntry(ent, why)
		case !e.typ.IsDir():
			ok = w.addFile(ent)
		default:
			sub := ahead[i]
			ahead[i] = nil
			next, inFlight = w.listAhead(l, abs, ahead, next, inFlight-1)
			ok = w.enter(ent, sub)
		}
		if !ok {
			return false
		}
	}
	return true
}

// await waits for the listing l, sending the files gathered so far first
// when it is not done yet; false: the walk is over.
func (w *walker[T]) await(l *listing) bool {
	select {
	case <-l.done:
		return true
	default:
	}
	if !w.flushRun() {
		return false
	}
	select {
	case <-l.done:
		return true
	case <-w.ctx.Done():
		return false
	}
}

// unreadDir yields a directory that could not be listed, with its error;
// one removed since its parent was listed is not reported.
func (w *walker[T]) unreadDir(abs, rel string, err error) bool {
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	ent := Entry{Rel: rel, dir: abs, Type: fs.ModeDir, Err: err}
	if rel != "" {
		ent.dir = filepath.Dir(abs)
	}
	return w.sendOne(ent)
}

// hiddenEntry yields a hidden entry without work (said, never read).
func (w *walker[T]) hiddenEntry(ent Entry, why string) bool {
	if !ent.IsDir() && !w.keep(ent) {
		return true
	}
	ent.Hidden = why
	return w.sendOne(ent)
}

// addFile adds a file that Keep takes to the batch being filled, and
// sends the batch when it is full.
func (w *walker[T]) addFile(ent Entry) bool {
	if !w.keep(ent) {
		return true
	}
	if w.run == nil {
		w.run = w.newBatch()
	}
	w.run.entries = append(w.run.entries, ent)
	if len(w.run.entries) < batchSize {
		return true
	}
	return w.flushRun()
}

// sendOne sends an entry in a batch of its own, without work, after the
// files before it.
func (w *walker[T]) sendOne(ent Entry) bool {
	return w.flushRun() && w.send(&batch[T]{entries: []Entry{ent}})
}

// flushLast sends the walk's last files split among the workers: sent
// as one batch, they ran on one worker at the end of the walk while the
// others had nothing left to do.
func (w *walker[T]) flushLast() bool {
	last := w.run
	w.run = nil
	if last == nil {
		return true
	}
	n := len(last.entries)
	parts := min(w.opt.Workers, n)
	for k := range parts {
		b := w.newBatch()
		b.entries = append(b.entries, last.entries[k*n/parts:(k+1)*n/parts]...)
		if !w.flush(b) {
			return false
		}
	}
	return true
}

// flushRun sends the batch of files being filled, if any.
func (w *walker[T]) flushRun() bool {
	b := w.run
	w.run = nil
	return w.flush(b)
}

// enter yields a directory (when directories are yielded and Keep takes
// it), then walks into it, sub being its listing.
func (w *walker[T]) enter(ent Entry, sub *listing) bool {
	if w.opt.Dirs && w.keep(ent) && !w.sendOne(ent) {
		return false
	}
	return w.walkDir(sub.abs, ent.Rel, sub)
}

// listAhead queues the listings of the subdirectories of l (the listing
// of abs), from entry next on, into ahead (by entry index) until dirAhead
// are in flight or none is left; it returns the new next and inFlight.
func (w *walker[T]) listAhead(l *listing, abs string, ahead []*listing, next, inFlight int) (int, int) {
	for inFlight < dirAhead && next < len(l.entries) {
		e := l.entries[next]
		if e.typ.IsDir() && l.hidden(next) == "" {
			ahead[next] = w.prefetch(l.ig, abs+string(filepath.Separator)+e.name(), e.rel)
			inFlight++
		}
		next++
	}
	return next, inFlight
}

// newBatch returns an empty batch of files, a spare one when there is one.
func (w *walker[T]) newBatch() *batch[T] {
	select {
	case b := <-w.spare:
		return b
	default:
		return &batch[T]{entries: make([]Entry, 0, batchSize)}
	}
}

// recycle keeps a batch of files that visit is done with for newBatch.
func (w *walker[T]) recycle(b *batch[T]) {
	if cap(b.entries) != batchSize {
		return // a directory's own batch
	}
	clear(b.entries) // what they hold is not kept alive
	clear(b.results)
	b.entries, b.results, b.done = b.entries[:0], b.results[:0], nil
	select {
	case w.spare <- b:
	default:
	}
}

// flush sends a batch of files, queueing the work on them first.
func (w *walker[T]) flush(b *batch[T]) bool {
	if b == nil || len(b.entries) == 0 {
		return true
	}
	if w.work != nil {
		if cap(b.results) < len(b.entries) {
			b.results = make([]T, len(b.entries), batchSize)
		}
		b.results = b.results[:len(b.entries)]
		b.done = make(chan struct{})
		w.submit(w.files, func() {
			defer close(b.done)
			for i, e := range b.entries {
				if w.ctx.Err() != nil {
					return
				}
				b.results[i] = w.work(w.ctx, e)
			}
		})
	}
	return w.send(b)
}

func (w *walker[T]) keep(e Entry) bool {
	return w.opt.Keep == nil || w.opt.Keep(e)
}

func (w *walker[T]) send(b *batch[T]) bool {
	select {
	case w.items <- b:
		return true
	case <-w.ctx.Done():
		return false
	}
}
