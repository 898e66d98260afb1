// Package spill keeps the full output that did not fit a tool result: one
// directory per session, one file per spilled stream, written as the output
// arrives, capped per file and budgeted per session.
//
// A store holds its directory open from the moment it makes or checks it,
// and creates and removes files only through that handle, never by a path
// that a command could have changed since. A session's directory is
// locked (flock) for the session's whole life, so that the start-up sweep
// of another process can tell a live session from a dead one whatever
// their pids look like.
package spill

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/internal/proc"
	"github.com/spillway-dev/spillway/output"
)

// Defaults of the spill store (docs/tools.md).
const (
	DefaultMaxFileBytes = 100 << 20
	DefaultBudgetBytes  = 1 << 30
	// DefaultKeepNamed is how long a file named in a result is kept from
	// the budget's deletions.
	DefaultKeepNamed = 10 * time.Minute
	// CLIMaxAge is how long the one-shot CLI keeps its spill files.
	CLIMaxAge = 24 * time.Hour
)

// tempName is the name of a session's private temp directory inside its
// spill directory.
const tempName = "tmp"

// Config configures a Store. Zero values take the defaults.
type Config struct {
	// TempDir is where the store's directory is made; default os.TempDir().
	TempDir string
	// MaxFileBytes caps one spill file.
	MaxFileBytes int64
	// BudgetBytes caps the store, files still being written included:
	// past it the oldest finished files are deleted first, and when none
	// may be deleted the files being written stop growing.
	BudgetBytes int64
	// KeepNamed is how long after a result named a file (its Path was
	// asked) the budget leaves it alone; the newest file is never deleted.
	KeepNamed time.Duration
	// OpenFile creates a spill file; tests use it to inject faults.
	// Default: a create through the directory's handle.
	OpenFile func(name string, flag int, perm os.FileMode) (WriteFile, error)
}

// A WriteFile is what a spill file needs of an *os.File.
type WriteFile interface {
	io.Writer
	Close() error
}

// A Store owns one directory of spill files.
type Store struct {
	cfg    Config
	shared bool // the CLI's kept directory: not removed on Close

	mu      sync.Mutex
	parent  *os.Root // the temp directory (session stores)
	dir     *privateDir
	dirErr  error
	temp    string // the private temp directory, once made
	seq     int
	files   []*File // oldest first
	used    int64
	deleted map[string]Cause
	closed  bool
}

func (c Config) withDefaults() Config {
	if c.TempDir == "" {
		c.TempDir = os.TempDir()
	}
	if c.MaxFileBytes <= 0 {
		c.MaxFileBytes = DefaultMaxFileBytes
	}
	if c.BudgetBytes <= 0 {
		c.BudgetBytes = DefaultBudgetBytes
	}
	if c.KeepNamed <= 0 {
		c.KeepNamed = DefaultKeepNamed
	}
	return c
}

// NewSession returns the store of one session. Its directory,
// $TMPDIR/spillway-<pid>-<random>, is made on first need (mode 0700) and
// removed by Close.
func NewSession(cfg Config) *Store {
	return &Store{cfg: cfg.withDefaults(), deleted: map[string]Cause{}}
}

// NewCLI returns the store of the one-shot CLI, kept across runs so that
// a person can open the files its notices name (see openCLIDir for
// where). Files older than CLIMaxAge are removed, and the oldest go first
// when the directory is over budget. A directory there that is a symlink
// or belongs to another user is not used.
func NewCLI(cfg Config) *Store {
	return &Store{cfg: cfg.withDefaults(), shared: true, deleted: map[string]Cause{}}
}

// Dir returns the store's directory: its real path, once made and
// checked ("" before, or when it cannot be used).
func (s *Store) Dir() string {
	d, _ := s.DirInfo()
	return d
}

// DirInfo returns the store's directory and its identity as the store's
// handle sees it ("" and nil before it is made or when it cannot be
// used). A path that no longer leads to that same directory is not the
// store's.
func (s *Store) DirInfo() (string, fs.FileInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == nil {
		return "", nil
	}
	return s.dir.path, s.dir.info
}

// Owns reports whether path lies in the store's directory.
func (s *Store) Owns(path string) bool {
	dir := s.Dir()
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Deleted reports whether path was a spill file of this store that was
// deleted before the session ended, and why.
func (s *Store) Deleted(path string) (Cause, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.deleted[path]
	return c, ok
}

// NextSeq returns a new sequence number for the file names of one call.
func (s *Store) NextSeq() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.seq
}

// Opener returns a SpillOpener for the stream of one call: the file
// <tool>-<seq>-<stream>.log is created only if the opener is called.
func (s *Store) Opener(tool string, seq int, stream string) output.SpillOpener {
	return func() (output.Spill, error) {
		f, err := s.Create(fmt.Sprintf("%s-%d-%s.log", tool, seq, stream))
		if err != nil {
			return nil, err // not a nil *File in a non-nil interface
		}
		return f, nil
	}
}

// Create makes a new spill file (O_EXCL, never through a symlink, mode
// 0600) through the directory's handle.
func (s *Store) Create(name string) (*File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("the session has ended")
	}
	if err := s.ensureDir(); err != nil {
		return nil, err
	}
	if s.shared {
		// Runs of the CLI share the directory: make the name unique.
		name = strings.TrimSuffix(name, ".log") + "-" + randomHex(4) + ".log"
	}
	if name != filepath.Base(name) || name == tempName {
		return nil, fmt.Errorf("spill file name %q is not a plain name", name)
	}
	path := filepath.Join(s.dir.path, name)
	var w WriteFile
	var err error
	if s.cfg.OpenFile != nil {
		w, err = s.cfg.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	} else {
		w, err = s.dir.create(name)
	}
	if err != nil {
		return nil, err
	}
	f := &File{store: s, w: w, name: name, path: path, cap: s.cfg.MaxFileBytes}
	s.files = append(s.files, f)
	s.dropForgottenLocked()
	return f, nil
}

// TempDir returns the session's private temp directory, <dir>/tmp (0700),
// made on first call: the one place besides the root where sandboxed
// commands may write. The spill files beside it stay out of their reach.
func (s *Store) TempDir() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shared {
		return "", errors.New("the CLI's shared spill directory has no private temp directory")
	}
	if s.closed {
		return "", errors.New("the session has ended")
	}
	if s.temp != "" {
		return s.temp, nil
	}
	if err := s.ensureDir(); err != nil {
		return "", err
	}
	if err := s.dir.root.Mkdir(tempName, 0o700); err != nil {
		return "", err
	}
	s.temp = filepath.Join(s.dir.path, tempName)
	return s.temp, nil
}

func (s *Store) ensureDir() error {
	if s.dir != nil {
		return nil
	}
	if s.shared {
		if s.dirErr == nil {
			s.dir, s.dirErr = openCLIDir(s.cfg.TempDir)
			if s.dirErr == nil {
				s.pruneShared()
			}
		}
		return s.dirErr
	}
	// Tried again on the next call when it fails: the disk may come back.
	if err := os.MkdirAll(s.cfg.TempDir, 0o755); err != nil {
		return err
	}
	parent, real, err := openParent(s.cfg.TempDir)
	if err != nil {
		return err
	}
	d, err := makeSessionDir(parent, real)
	if err != nil {
		parent.Close()
		return err
	}
	s.parent, s.dir = parent, d
	// Should the server end before the session does (killed, or exiting
	// before a job ignoring SIGTERM is gone), its watcher removes it.
	proc.WatchDir(d.path, d.info)
	return nil
}

// makeSessionDir makes and locks a new session directory in parent. It is
// made under a name the sweep ignores and renamed once locked, so that a
// sweep never sees it unlocked.
func makeSessionDir(parent *os.Root, parentPath string) (*privateDir, error) {
	suffix := randomHex(6)
	tmpName := ".spillway-new-" + suffix
	if err := parent.Mkdir(tmpName, 0o700); err != nil {
		return nil, err
	}
	d, err := openPrivate(parent, parentPath, tmpName)
	if err != nil {
		parent.Remove(tmpName)
		return nil, err
	}
	name := fmt.Sprintf("spillway-%d-%s", os.Getpid(), suffix)
	ok, err := d.lock()
	if err == nil && !ok {
		err = errors.New("cannot lock a new spill directory")
	}
	if err == nil {
		err = parent.Rename(tmpName, name)
	}
	if err != nil {
		d.close()
		parent.Remove(tmpName)
		return nil, err
	}
	d.path = filepath.Join(parentPath, name)
	return d, nil
}

// pruneShared removes the CLI's files that are too old or over budget.
func (s *Store) pruneShared() {
	d, err := s.dir.root.Open(".")
	if err != nil {
		return
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return
	}
	type file struct {
		name string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	now := time.Now()
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if now.Sub(info.ModTime()) > CLIMaxAge {
			s.dir.root.Remove(e.Name())
			continue
		}
		files = append(files, file{e.Name(), info.Size(), info.ModTime()})
		total += info.Size()
	}
	slices.SortStableFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) }) // oldest first
	for _, f := range files {
		if total <= s.cfg.BudgetBytes {
			break
		}
		if s.dir.root.Remove(f.name) == nil {
			total -= f.size
		}
	}
}

// Close removes a session store's directory and everything in it, through
// the temp directory's handle and only if the name still leads to it. The
// CLI's shared directory is kept.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	for _, f := range s.files {
		f.closeLocked()
	}
	if s.dir == nil {
		return nil
	}
	var err error
	if !s.shared {
		err = s.dir.removeFrom(s.parent)
		s.parent.Close()
		proc.UnwatchDir(s.dir.path)
	}
	s.dir.close() // releases the lock, after the removal
	return err
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
