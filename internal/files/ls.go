package files

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/tool"
)

// A Listing is the start of a directory in order: names sorted
// case-insensitively, dotfiles included, a directory's ending in "/" and
// a symlink's in "@".
type Listing struct {
	// Names are the first Limit names in order (all of them when the
	// directory holds no more).
	Names []string
	// Total counts the directory's entries, TotalBytes the bytes of all
	// their names one a line.
	Total, TotalBytes int64
	// Hidden counts the entries Config.Hide kept out (not in Total);
	// HiddenBy names what hid them, each once.
	Hidden   int64
	HiddenBy []string
	// Policy is the ls policy the listing is held to, its Limit the
	// call's limit when it gave one: the most names, and the bytes and
	// the tokens (0: no limit) of the text that shows them.
	Policy tool.LsPolicy
}

// lsBatch is how many entries are read from the directory at a time.
const lsBatch = 1024

// List lists the directory an ls call names (in.Path, "" the Cwd) up to
// in.Limit names (0: the policy's). Only the first names in order are
// ever held, however big the directory.
func (t *Tools) List(ctx context.Context, in tool.LsInput) (Listing, error) {
	lim := t.cfg.Ls
	lim.Limit = policy.Limit(in.Limit, lim.Limit)
	p := in.Path
	if p == "" {
		p = "."
	}
	path, err := t.resolve(p) // --root
	if err != nil {
		return Listing{}, err
	}
	if err := checkDir(path); err != nil {
		return Listing{}, err
	}
	d, err := openDirNoBlock(path)
	if err != nil {
		return Listing{}, listError(path, err)
	}
	defer d.Close()
	if err := t.cfg.Root.CheckFile(d); err != nil { // changed since the check
		return Listing{}, err
	}
	hide := t.hider(path)
	if why := hide(path); why != "" {
		return Listing{}, fmt.Errorf("%s is hidden by the Read rule %s: spillway does not list it. Ask the user instead", path, why)
	}
	l := lister{dir: path, hide: hide, limit: lim.Limit}
	for {
		if err := ctx.Err(); err != nil {
			return Listing{}, fmt.Errorf("ls of %s cancelled: %v", path, err)
		}
		batch, err := d.ReadDir(lsBatch)
		for _, e := range batch {
			l.add(e)
		}
		if err == io.EOF || (err == nil && len(batch) == 0) {
			break
		}
		if err != nil {
			return Listing{}, listError(path, err)
		}
	}
	out := l.listing()
	out.Policy = lim
	return out, nil
}

// checkDir says why path cannot be listed when it is not a directory.
func checkDir(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory not found: %s. Use find to locate it", path)
	case err != nil:
		return listError(path, err)
	case !fi.IsDir():
		if fi.Mode().IsRegular() {
			return fmt.Errorf("%s is a file, not a directory. Use read to see its contents", path)
		}
		return fmt.Errorf("%s is not a directory (%s)", path, fi.Mode().Type())
	}
	return nil
}

// A lister counts a directory's entries as they are read and keeps the
// first limit names in order.
type lister struct {
	dir   string
	hide  func(string) string
	limit int

	kept              entryHeap
	total, totalBytes int64
	hidden            int64
	hiddenBy          []string
}

// add counts one entry, or the rule that hides it, and keeps its name
// while it is among the first.
func (l *lister) add(e fs.DirEntry) {
	name := e.Name()
	if why := l.hide(l.dir + string(filepath.Separator) + name); why != "" {
		l.hidden++
		if len(l.hiddenBy) < 5 && !slices.Contains(l.hiddenBy, why) {
			l.hiddenBy = append(l.hiddenBy, why)
		}
		return
	}
	switch {
	case e.Type()&fs.ModeSymlink != 0:
		name += "@"
	case e.IsDir():
		name += "/"
	}
	l.total++
	l.totalBytes += int64(len(name)) + 1
	ent := lsEntry{key: strings.ToLower(e.Name()), name: name}
	if l.kept.Len() < l.limit {
		heap.Push(&l.kept, ent)
	} else if ent.less(l.kept[0]) {
		l.kept[0] = ent
		heap.Fix(&l.kept, 0)
	}
}

// listing returns the names kept, in order, and the counts.
func (l *lister) listing() Listing {
	entries := []lsEntry(l.kept)
	sort.Slice(entries, func(i, j int) bool { return entries[i].less(entries[j]) })
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.name
	}
	return Listing{Names: names, Total: l.total, TotalBytes: l.totalBytes, Hidden: l.hidden, HiddenBy: l.hiddenBy}
}

// hider returns what hides a path of the directory dir (Config.Hide),
// asked of the path as given and, when dir is reached through a symlink,
// as it really is; it hides nothing without Config.Hide.
func (t *Tools) hider(dir string) func(string) string {
	if t.cfg.Hide == nil {
		return func(string) string { return "" }
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	return func(p string) string {
		if why := t.cfg.Hide(p); why != "" || real == dir {
			return why
		}
		return t.cfg.Hide(real + p[len(dir):])
	}
}

func listError(path string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("cannot list %s: permission denied", path)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot list %s: %v", path, err)
}

// An lsEntry is a name to show and its sort key.
type lsEntry struct {
	key  string // lower case
	name string // with its "/" or "@"
}

// less orders case-insensitively, then by the exact name, so that the
// order never depends on the directory's.
func (a lsEntry) less(b lsEntry) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.name < b.name
}

// An entryHeap is a max-heap: its root is the last entry kept, the first
// to go when a smaller one comes.
type entryHeap []lsEntry

func (h entryHeap) Len() int           { return len(h) }
func (h entryHeap) Less(i, j int) bool { return h[j].less(h[i]) }
func (h entryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *entryHeap) Push(x any)        { *h = append(*h, x.(lsEntry)) }
func (h *entryHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
