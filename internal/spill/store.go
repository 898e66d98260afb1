// Package spill keeps the full output that did not fit a tool result: one
// directory per session, one file per spilled stream, written as the output
// arrives, capped per file and budgeted per session.
package spill

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spillway-dev/spillway/output"
)

// Defaults of the SPEC.
const (
	DefaultMaxFileBytes = 100 << 20
	DefaultBudgetBytes  = 1 << 30
	// CLIMaxAge is how long the one-shot CLI keeps its spill files.
	CLIMaxAge = 24 * time.Hour
)

// Config configures a Store. Zero values take the defaults.
type Config struct {
	// TempDir is where the store's directory is made; default os.TempDir().
	TempDir string
	// MaxFileBytes caps one spill file.
	MaxFileBytes int64
	// BudgetBytes caps the store: past it the oldest finished files are
	// deleted first.
	BudgetBytes int64
	// OpenFile creates a spill file; tests use it to inject faults.
	// Default: os.OpenFile.
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
	dir     string
	dirErr  error
	seq     int
	files   []*File // live files, oldest first
	used    int64
	deleted map[string]bool
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
	if c.OpenFile == nil {
		c.OpenFile = func(name string, flag int, perm os.FileMode) (WriteFile, error) {
			return os.OpenFile(name, flag, perm)
		}
	}
	return c
}

// NewSession returns the store of one session. Its directory,
// $TMPDIR/spillway-<pid>-<random>, is made on first need (mode 0700) and
// removed by Close.
func NewSession(cfg Config) *Store {
	return &Store{cfg: cfg.withDefaults(), deleted: map[string]bool{}}
}

// NewCLI returns the store of the one-shot CLI: $TMPDIR/spillway-<uid>/cli/,
// kept across runs so that a person can open the files its notices name.
// Files older than CLIMaxAge are removed, and the oldest go first when the
// directory is over budget.
func NewCLI(cfg Config) *Store {
	s := &Store{cfg: cfg.withDefaults(), shared: true, deleted: map[string]bool{}}
	s.dir = filepath.Join(s.cfg.TempDir, fmt.Sprintf("spillway-%d", os.Getuid()), "cli")
	return s
}

// Dir returns the store's directory ("" if a session store has not made
// it yet).
func (s *Store) Dir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dir
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

// Deleted reports whether path was a spill file of this store that the
// budget deleted.
func (s *Store) Deleted(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deleted[path]
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

// Create makes a new spill file (O_EXCL, mode 0600).
func (s *Store) Create(name string) (*File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("the session has ended")
	}
	dir, err := s.ensureDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, name)
	if s.shared {
		// Runs of the CLI share the directory: make the name unique.
		path = filepath.Join(dir, strings.TrimSuffix(name, ".log")+"-"+randomHex(4)+".log")
	}
	w, err := s.cfg.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	f := &File{store: s, w: w, path: path, cap: s.cfg.MaxFileBytes}
	s.files = append(s.files, f)
	return f, nil
}

func (s *Store) ensureDir() (string, error) {
	if s.dir != "" && !s.shared {
		return s.dir, nil
	}
	if s.shared {
		if s.dirErr == nil {
			if err := os.MkdirAll(s.dir, 0o700); err != nil {
				s.dirErr = err
			} else if err := checkPrivate(filepath.Dir(s.dir)); err != nil {
				s.dirErr = err
			} else if err := checkPrivate(s.dir); err != nil {
				s.dirErr = err
			} else {
				s.pruneShared()
			}
		}
		return s.dir, s.dirErr
	}
	if err := os.MkdirAll(s.cfg.TempDir, 0o755); err != nil {
		return "", err // tried again on the next call: the disk may come back
	}
	dir := filepath.Join(s.cfg.TempDir, fmt.Sprintf("spillway-%d-%s", os.Getpid(), randomHex(6)))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	s.dir = dir
	return dir, nil
}

// checkPrivate refuses a shared directory that another user owns, and
// makes one that others could enter private.
func checkPrivate(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to this user: remove it or set TMPDIR elsewhere", dir, st.Uid)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// pruneShared removes the CLI's files that are too old or over budget.
func (s *Store) pruneShared() {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	type file struct {
		path string
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
		p := filepath.Join(s.dir, e.Name())
		if now.Sub(info.ModTime()) > CLIMaxAge {
			os.Remove(p)
			continue
		}
		files = append(files, file{p, info.Size(), info.ModTime()})
		total += info.Size()
	}
	slices.SortStableFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) }) // oldest first
	for _, f := range files {
		if total <= s.cfg.BudgetBytes {
			break
		}
		if os.Remove(f.path) == nil {
			total -= f.size
		}
	}
}

// grow accounts n more bytes and deletes the oldest finished files while
// the store is over budget.
func (s *Store) grow(n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.used += n
	s.enforceLocked()
}

// enforceLocked deletes the oldest finished files while the store is over
// budget. Files still being written are kept.
func (s *Store) enforceLocked() {
	for i := 0; s.used > s.cfg.BudgetBytes && i < len(s.files); {
		f := s.files[i]
		if !f.finished {
			i++
			continue
		}
		os.Remove(f.path)
		s.deleted[f.path] = true
		s.used -= f.size
		s.files = append(s.files[:i], s.files[i+1:]...)
	}
}

// Close removes a session store's directory and everything in it. The
// CLI's shared directory is kept.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, f := range s.files {
		f.closeLocked()
	}
	if s.shared || s.dir == "" {
		return nil
	}
	return os.RemoveAll(s.dir)
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
