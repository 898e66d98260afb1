// Package filechange is the engine of the edit, write and apply_patch
// tools: one Session per tool session. It finds the file (through the
// caller's confinement), refuses to overwrite what changed since the
// session saw it (by content hash), applies the change in memory (or
// streaming, for a big file), writes it so that nothing is lost
// (internal/safewrite), writes the unified diff of the change, and keeps
// the replaced content in a journal so that the change can be shown again
// and undone.
package filechange

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/internal/difflines"
	"github.com/spillway-dev/spillway/internal/safewrite"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// DefaultMaxInMemory is the size past which a file is edited by streaming
// rather than in memory.
const DefaultMaxInMemory = 32 << 20

// A Location is where a file lies: a directory the session may write
// under (the root, or an allowed one such as the session's temp) and the
// path below it, symlinks followed.
type Location struct {
	Base, Rel string
}

// Real is the location's absolute path.
func (l Location) Real() string { return filepath.Join(l.Base, l.Rel) }

// Config configures a Session.
type Config struct {
	// Cwd is the directory relative paths resolve against.
	Cwd string
	// Resolve finds where a path (relative to Cwd, or absolute) lies and
	// refuses a path the session may not write. nil: any path.
	Resolve func(path string) (Location, error)
	// Journal, when set, makes a file that keeps a change's replaced
	// content (the session's spill store: its budget counts them, and
	// drops the oldest first). It returns the file and its path.
	Journal func(name string) (io.WriteCloser, string, error)
	// MaxInMemory: larger files are edited by streaming (one edit at a
	// time); apply_patch refuses them. 0: DefaultMaxInMemory.
	MaxInMemory int64
}

// A Session holds what one tool session has seen and changed. Its
// methods are safe for concurrent use; changes are made one at a time.
type Session struct {
	cfg Config

	mu      sync.Mutex // one change at a time
	seenMu  sync.Mutex
	seen    map[string]Seen
	journal []*Entry
	nextID  int
}

// Seen is what the session last saw of a file.
type Seen struct {
	SHA256 string
	Size   int64
	How    string // "read" or "written"
	At     time.Time
}

// New returns a Session.
func New(cfg Config) *Session {
	if cfg.MaxInMemory <= 0 {
		cfg.MaxInMemory = DefaultMaxInMemory
	}
	if cfg.Resolve == nil {
		cwd := cfg.Cwd
		cfg.Resolve = func(p string) (Location, error) { return resolveAny(cwd, p) }
	}
	return &Session{cfg: cfg, seen: map[string]Seen{}}
}

// resolveAny locates a path with no confinement: under "/", its symlinks
// followed as far as the path exists.
func resolveAny(cwd, p string) (Location, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	real, err := evalExisting(p)
	if err != nil {
		return Location{}, err
	}
	return Location{Base: "/", Rel: strings.TrimPrefix(real, "/")}, nil
}

// evalExisting follows the symlinks of the part of p that exists.
func evalExisting(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	dir, base := filepath.Split(p)
	if dir == p || dir == "" {
		return p, nil
	}
	d, err := evalExisting(filepath.Clean(dir))
	if err != nil {
		return "", err
	}
	return filepath.Join(d, base), nil
}

// Saw records that the session saw the content of a file (a read of any
// part of it): a later change refuses to overwrite it if it changed.
func (s *Session) Saw(real string, sum string, size int64) {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	s.seen[real] = Seen{SHA256: sum, Size: size, How: "read", At: time.Now()}
}

// SeenAs returns what the session last saw of the file at real.
func (s *Session) SeenAs(real string) (Seen, bool) {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	v, ok := s.seen[real]
	return v, ok
}

func (s *Session) wrote(real string, sum string, size int64) {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	s.seen[real] = Seen{SHA256: sum, Size: size, How: "written", At: time.Now()}
}

func (s *Session) forget(real string) {
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	delete(s.seen, real)
}

// A StaleError refuses a change to a file that changed since the session
// last saw it.
type StaleError struct {
	Path      string
	Then      Seen
	NowSHA256 string
	NowSize   int64
	NowMod    time.Time
	Gone      bool
}

func (e *StaleError) Error() string {
	then := fmt.Sprintf("%s it (%s, sha256 %s, at %s)", e.Then.How, output.FormatSize(e.Then.Size), short(e.Then.SHA256), e.Then.At.Format("15:04:05"))
	if e.Gone {
		return fmt.Sprintf("%s was deleted since this session %s: nothing was written. Check what removed it; write it again to recreate it", e.Path, then)
	}
	return fmt.Sprintf("%s changed since this session %s: it is now %s, sha256 %s, modified %s. Nothing was written: read it again and redo the change on what it holds now",
		e.Path, then, output.FormatSize(e.NowSize), short(e.NowSHA256), e.NowMod.Format("15:04:05"))
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return sum
}

// checkFresh refuses a file the session saw that changed since.
func (s *Session) checkFresh(display, real string, cur *current) error {
	then, ok := s.SeenAs(real)
	if !ok {
		return nil
	}
	if cur == nil {
		return &StaleError{Path: display, Then: then, Gone: true}
	}
	if cur.sum != then.SHA256 {
		return &StaleError{Path: display, Then: then, NowSHA256: cur.sum, NowSize: cur.size, NowMod: cur.mod}
	}
	return nil
}

// A Change is what one file went through: the tools' details of it
// (tool.FileChange), the journal entry that can show and undo it, the
// file's real path, and what could not be kept.
type Change struct {
	tool.FileChange
	// Journal is the journal entry that can show and undo the change (0:
	// none was kept).
	Journal int
	// Real is the file's absolute path, symlinks followed.
	Real string
	// Notes say what could not be kept (an owner, an attribute).
	Notes []string
}

// current is a file as it is now.
type current struct {
	f    *os.File
	size int64
	mod  time.Time
	sum  string
	data []byte // the content, when held in memory
	// interrupted is an earlier in-place write of the file that did not
	// end and left it mixed, which this write (given the file's hash as
	// expected_sha256) replaces knowingly.
	interrupted *safewrite.Interrupted
	// notes say what opening the file found and did (leftovers of an
	// interrupted write removed).
	notes []string
}

func (c *current) close() {
	if c != nil && c.f != nil {
		c.f.Close()
	}
}

// ErrBinary refuses a file that is not text.
var ErrBinary = errors.New("is not a text file (it has NUL bytes): edit and apply_patch change text; use write to replace it whole")

// open opens the file at loc for reading: nil, nil when it does not
// exist. When the file fits in memory its content is read and hashed;
// else only hashed if hash is set. A file an interrupted in-place write
// left mixed is refused (openAck).
func (s *Session) open(root *os.Root, loc Location, display string, hash bool) (*current, error) {
	return s.openAck(root, loc, display, hash, "")
}

// openAck is open, except that a file an interrupted in-place write left
// mixed is opened when ack is the hash of what it holds now: the caller
// (write with expected_sha256) replaces it knowingly.
func (s *Session) openAck(root *os.Root, loc Location, display string, hash bool, ack string) (*current, error) {
	f, err := root.Open(loc.Rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	if fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s is a directory: the file tools change files", display)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s): the file tools change regular files only", display, fi.Mode().Type())
	}
	c := &current{f: f, size: fi.Size(), mod: fi.ModTime()}
	if err := s.checkInterrupted(root, loc, display, fi, c, ack); err != nil {
		f.Close()
		return nil, err
	}
	if fi.Size() <= s.cfg.MaxInMemory {
		c.data, err = io.ReadAll(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", display, err)
		}
		c.size = int64(len(c.data))
		c.sum = sum(c.data)
		return c, nil
	}
	if hash {
		h := sha256.New()
		n, err := io.Copy(h, f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", display, err)
		}
		c.size, c.sum = n, hex.EncodeToString(h.Sum(nil))
	}
	return c, nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// isBinary reports whether the head of a file holds a NUL byte.
func isBinary(head []byte) bool {
	if len(head) > 8<<10 {
		head = head[:8<<10]
	}
	return bytes.IndexByte(head, 0) >= 0
}

// locate resolves a path and opens its base directory.
func (s *Session) locate(path string) (Location, *os.Root, error) {
	if path == "" {
		return Location{}, nil, errors.New("path is empty: give the file to change")
	}
	loc, err := s.cfg.Resolve(path)
	if err != nil {
		return loc, nil, err
	}
	root, err := os.OpenRoot(loc.Base)
	if err != nil {
		return loc, nil, err
	}
	if loc.Rel == "" || loc.Rel == "." {
		root.Close()
		return loc, nil, fmt.Errorf("%s is a directory: the file tools change files", path)
	}
	return loc, root, nil
}

// diff writes the unified diff of a and b to w, headed by the path.
func diff(w io.Writer, a, b io.Reader, nameA, nameB string) (difflines.Stats, error) {
	if w == nil {
		w = io.Discard
	}
	return difflines.Unified(w, a, b, nameA, nameB)
}

// write writes content to loc through safewrite and returns its notes.
func write(root *os.Root, loc Location, fill safewrite.Fill) ([]string, safewrite.Result, error) {
	res, err := safewrite.Write(root, loc.Rel, fill)
	if err != nil {
		return nil, res, err
	}
	var notes []string
	if !res.OwnerKept {
		notes = append(notes, "the file's owner could not be kept (this process may not chown): it is now owned by the server's user")
	}
	if len(res.XattrsLost) > 0 {
		notes = append(notes, "extended attributes not kept: "+strings.Join(res.XattrsLost, ", "))
	}
	if res.InPlace {
		notes = append(notes, "the file has other hard links: it was written in place so they all see the change")
	}
	return notes, res, nil
}

func bytesFill(b []byte) safewrite.Fill {
	return func(w io.Writer) error { _, err := w.Write(b); return err }
}
