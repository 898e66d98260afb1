// Package confine keeps the file tools inside one directory tree, the
// --root of the server: a path that resolves outside it — through "..", an
// absolute path or a symlink — is refused, except under a few allowed
// directories (the session's spill directory).
//
// Resolve follows symlinks the way the kernel does before it checks, and
// Open closes the gap between the check and the open: the file is opened
// relative to a handle of the root by a resolver that cannot leave it, so a
// component swapped for a symlink after the check cannot lead out. On Linux
// that is openat2(RESOLVE_BENEATH) (on kernels without it, the opened
// file's real path in /proc/self/fd is checked); elsewhere it is os.Root,
// which walks the path one openat at a time and refuses a way out.
//
// A nil *Root confines nothing: every method allows every path.
package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// maxSymlinks bounds the symlinks followed while resolving one path, as
// the kernel's ELOOP does.
const maxSymlinks = 40

// testHookBeforeOpen, when set by a test, runs between the check and the
// open of Root.Open.
var testHookBeforeOpen func()

// errLeftBase is what a platform's openBeneath reports when the path it
// opens no longer stays under its base directory.
var errLeftBase = errors.New("the path leaves its base directory")

// ErrOutside is matched (errors.Is) by every refusal of a Root.
var ErrOutside = errors.New("path resolves outside the root")

// An OutsideError says which path was refused and why.
type OutsideError struct {
	// Path is the path as it was given.
	Path string
	// Root is the root directory.
	Root string
	// Resolved is where Path leads, symlinks followed.
	Resolved string
	// Symlink is true when Path lies under the root as written and a
	// symlink leads it out.
	Symlink bool
	// Changed is true when the check passed but the path changed before
	// it was opened (a component swapped for a symlink).
	Changed bool
}

func (e *OutsideError) Error() string {
	var why string
	switch {
	case e.Changed:
		why = " (it changed while it was opened: a component is now a symlink that leads out)"
	case e.Symlink:
		why = fmt.Sprintf(" (through a symlink, to %s)", e.Resolved)
	case e.Resolved != "":
		why = fmt.Sprintf(" (to %s)", e.Resolved)
	}
	return fmt.Sprintf("path %s resolves outside the root %s%s; the file tools only reach paths under the root", e.Path, e.Root, why)
}

// Is makes errors.Is(err, ErrOutside) true.
func (e *OutsideError) Is(target error) bool { return target == ErrOutside }

// A Root is a directory the file tools may not leave. Its methods are safe
// for concurrent use.
type Root struct {
	dir   string // absolute, symlinks resolved
	allow []Allowed
}

// An Allowed names a directory that is allowed besides the root, such as
// a session's spill directory that is made on first need: its real path
// and its identity as its owner holds it ("" and nil for none yet). It is
// called at every check. The directory is allowed only while that path
// still leads to that same directory: a symlink or another directory put
// in its place is not allowed, and the path is never resolved again.
type Allowed func() (dir string, id fs.FileInfo)

// New returns the Root of dir, which must be an existing directory, that
// also allows the directories the allow functions name.
func New(dir string, allow ...Allowed) (*Root, error) {
	if runtime.GOOS == "windows" {
		// Resolve walks slash-separated paths from "/"; drive letters,
		// UNC paths and junctions are not modelled, so no promise is made.
		return nil, fmt.Errorf("--root is not supported on Windows: %w", errors.ErrUnsupported)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", dir, err)
	}
	d, err := os.Open(real)
	if err == nil {
		var fi os.FileInfo
		if fi, err = d.Stat(); err == nil && !fi.IsDir() {
			err = syscall.ENOTDIR
		}
		d.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("root %s is not a directory that can be opened: %w", dir, err)
	}
	return &Root{dir: real, allow: allow}, nil
}

// With returns a Root with the same directory that also allows the
// directories the functions name.
func (r *Root) With(allow ...Allowed) *Root {
	if r == nil {
		return nil
	}
	c := *r
	c.allow = append(append([]Allowed(nil), r.allow...), allow...)
	return &c
}

// Dir returns the root directory, absolute with symlinks resolved ("" for
// a nil Root).
func (r *Root) Dir() string {
	if r == nil {
		return ""
	}
	return r.dir
}

// Resolve returns the absolute path that path (relative to cwd, or to the
// root when cwd is "") leads to, with ".." and symlinks followed as the
// kernel follows them, or an *OutsideError if that lies outside the root
// and the allowed directories. A path that does not exist is resolved as
// far as it exists; the rest is added as written (the caller's open then
// reports it missing).
func (r *Root) Resolve(cwd, path string) (string, error) {
	if r == nil {
		return filepath.Clean(joinRaw("", cwd, path)), nil
	}
	real, _, err := r.resolveBase(cwd, path)
	return real, err
}

// A base is the directory among the root and the allowed ones that holds
// a path: id is nil for the root.
type base struct {
	dir string
	id  fs.FileInfo
}

// resolveBase is Resolve on a Root that is not nil; it also returns the
// directory among the root and the allowed ones that holds the path.
func (r *Root) resolveBase(cwd, path string) (real string, b base, err error) {
	abs := joinRaw(r.dir, cwd, path)
	real, err = resolve(abs)
	if err != nil {
		return "", base{}, fmt.Errorf("path %s: %w", path, err)
	}
	if b, ok := r.base(real); ok {
		return real, b, nil
	}
	_, lexicalInside := r.base(filepath.Clean(abs))
	return "", base{}, &OutsideError{Path: path, Root: r.dir, Resolved: real, Symlink: lexicalInside}
}

// Contains reports whether path (absolute, or relative to the root) leads,
// symlinks followed, into the root or an allowed directory.
func (r *Root) Contains(path string) bool {
	_, err := r.Resolve("", path)
	return err == nil
}

// Open opens path (relative to cwd, or to the root when cwd is "") with the
// flags of os.OpenFile (files it creates get mode 0666 before the umask).
// The path is resolved and checked as Resolve does, then opened relative to
// a handle of its base directory by a resolver that stays beneath it, so
// that nothing changed after the check can lead the open outside.
func (r *Root) Open(cwd, path string, flag int) (*os.File, error) {
	if r == nil {
		return os.OpenFile(filepath.Clean(joinRaw("", cwd, path)), flag, 0o666)
	}
	real, b, err := r.resolveBase(cwd, path)
	if err != nil {
		return nil, err
	}
	if testHookBeforeOpen != nil {
		testHookBeforeOpen()
	}
	f, err := openBeneath(r, b, real, flag)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && (pe.Err == syscall.EXDEV || pe.Err == errLeftBase) {
			return nil, &OutsideError{Path: path, Root: r.dir, Resolved: real, Changed: true}
		}
		return nil, err
	}
	return f, nil
}

// base returns the directory among the root and the allowed ones that
// holds the resolved path p. An allowed directory counts only while its
// path still leads to the very directory its owner holds.
func (r *Root) base(p string) (base, bool) {
	if within(r.dir, p) {
		return base{dir: r.dir}, true
	}
	for _, f := range r.allow {
		d, id := f()
		if d == "" || id == nil {
			continue
		}
		if d = filepath.Clean(d); !filepath.IsAbs(d) || !within(d, p) {
			continue
		}
		if fi, err := os.Lstat(d); err == nil && os.SameFile(fi, id) {
			return base{dir: d, id: id}, true
		}
	}
	return base{}, false
}

// within reports whether the clean absolute path p is dir or lies under it.
func within(dir, p string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir) && p[len(dir)] == '/'
}

// joinRaw makes path absolute against cwd (itself against root, then the
// process's directory) without cleaning it, so that ".." after a symlink
// is followed as the kernel follows it.
func joinRaw(root, cwd, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	if cwd == "" {
		cwd = root
	}
	if !filepath.IsAbs(cwd) {
		if root != "" {
			cwd = root + "/" + cwd
		} else if abs, err := filepath.Abs(cwd); err == nil {
			cwd = abs
		}
	}
	if path == "" {
		return cwd
	}
	return cwd + "/" + path
}

// resolve follows the absolute path p component by component, symlinks
// included, and returns the clean real path. Once a component does not
// exist (or is not a directory), the remaining components are added
// lexically.
func resolve(p string) (string, error) {
	dest := "/"
	rest := p
	links := 0
	for rest != "" {
		var comp string
		comp, rest, _ = strings.Cut(rest, "/")
		switch comp {
		case "", ".":
			continue
		case "..":
			dest = filepath.Dir(dest)
			continue
		}
		next := filepath.Join(dest, comp)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return filepath.Join(next, rest), nil
			}
			return "", err
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			dest = next
			continue
		}
		if links++; links > maxSymlinks {
			return "", fmt.Errorf("too many levels of symbolic links at %s", next)
		}
		target, err := os.Readlink(next)
		if errors.Is(err, syscall.EINVAL) && links <= maxSymlinks/2 {
			// No longer a symlink: it was replaced since the Lstat. Look
			// at it again.
			rest = comp + "/" + rest
			continue
		}
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			dest = "/"
		}
		if rest != "" {
			target += "/" + rest
		}
		rest = target
	}
	return dest, nil
}
