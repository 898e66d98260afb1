package confine

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// tree makes a root with a file and a directory in it, and beside it an
// "outside" directory holding a secret.
//
//	base/root/a.txt            "a"
//	base/root/dir/b.txt        "b"
//	base/outside/secret.txt    "secret"
func tree(t testing.TB) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root = filepath.Join(base, "root")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{root, filepath.Join(root, "dir"), outside} {
		must(t, os.MkdirAll(d, 0o755))
	}
	write(t, filepath.Join(root, "a.txt"), "a")
	write(t, filepath.Join(root, "dir", "b.txt"), "b")
	write(t, filepath.Join(outside, "secret.txt"), "secret")
	// The temp dir itself may sit behind a symlink; compare real paths.
	root, _ = filepath.EvalSymlinks(root)
	outside, _ = filepath.EvalSymlinks(outside)
	return root, outside
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func write(t testing.TB, path, content string) {
	t.Helper()
	must(t, os.WriteFile(path, []byte(content), 0o644))
}

func newRoot(t *testing.T, dir string, allow ...Allowed) *Root {
	t.Helper()
	r, err := New(dir, allow...)
	must(t, err)
	return r
}

func readAll(t *testing.T, f *os.File) string {
	t.Helper()
	defer f.Close()
	b, err := io.ReadAll(f)
	must(t, err)
	return string(b)
}

// refused checks that err refuses path with the wording docs/reliability.md gives.
func refused(t *testing.T, err error, path, root string) *OutsideError {
	t.Helper()
	if err == nil {
		t.Fatalf("path %s was allowed, want it refused", path)
	}
	var oe *OutsideError
	if !errors.As(err, &oe) || !errors.Is(err, ErrOutside) {
		t.Fatalf("path %s: error %v is not an OutsideError", path, err)
	}
	want := "path " + path + " resolves outside the root " + root
	if !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %q does not start with %q", err, want)
	}
	return oe
}

func TestInsidePathsResolveAndOpen(t *testing.T) {
	root, _ := tree(t)
	r := newRoot(t, root)
	for _, c := range []struct{ cwd, path, want string }{
		{"", "a.txt", root + "/a.txt"},
		{"", "./dir/../a.txt", root + "/a.txt"},
		{"", root + "/dir/b.txt", root + "/dir/b.txt"},
		{root + "/dir", "b.txt", root + "/dir/b.txt"},
		{root + "/dir", "../a.txt", root + "/a.txt"},
		{"dir", "b.txt", root + "/dir/b.txt"}, // a relative cwd is under the root
		{"", "", root},
		{"", ".", root},
	} {
		got, err := r.Resolve(c.cwd, c.path)
		if err != nil || got != c.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", c.cwd, c.path, got, err, c.want)
		}
	}
	f, err := r.Open(root+"/dir", "../a.txt", os.O_RDONLY)
	must(t, err)
	if got := readAll(t, f); got != "a" {
		t.Errorf("read %q, want a", got)
	}
	if !r.Contains(root+"/dir/b.txt") || !r.Contains("a.txt") || r.Contains("/etc/passwd") {
		t.Error("Contains is wrong")
	}
}

func TestDotDotIsRefused(t *testing.T) {
	root, outside := tree(t)
	r := newRoot(t, root)
	for _, c := range []struct{ cwd, path string }{
		{"", "../outside/secret.txt"},
		{"", "dir/../../outside/secret.txt"},
		{"", ".."},
		{root + "/dir", "../../outside/secret.txt"},
		{outside, "secret.txt"}, // a cwd outside the root leads nowhere
	} {
		_, err := r.Resolve(c.cwd, c.path)
		oe := refused(t, err, c.path, root)
		if oe.Symlink {
			t.Errorf("%s: blamed on a symlink", c.path)
		}
		if _, err := r.Open(c.cwd, c.path, os.O_RDONLY); !errors.Is(err, ErrOutside) {
			t.Errorf("Open(%q, %q): %v, want refused", c.cwd, c.path, err)
		}
	}
}

func TestAbsolutePathOutsideIsRefused(t *testing.T) {
	root, outside := tree(t)
	r := newRoot(t, root)
	for _, p := range []string{outside + "/secret.txt", "/etc/passwd", "/", filepath.Dir(root)} {
		_, err := r.Resolve("", p)
		refused(t, err, p, root)
		if _, err := r.Open("", p, os.O_RDONLY); !errors.Is(err, ErrOutside) {
			t.Errorf("Open(%q): %v, want refused", p, err)
		}
	}
}

func TestSymlinksOutOfTheRootAreRefused(t *testing.T) {
	root, outside := tree(t)
	must(t, os.Symlink(outside+"/secret.txt", root+"/file-link"))    // absolute, to a file
	must(t, os.Symlink("../outside", root+"/dir-link"))              // relative, to a directory
	must(t, os.Symlink("dir-link/secret.txt", root+"/chained-link")) // a link through a link
	must(t, os.Symlink("/", root+"/slash"))
	r := newRoot(t, root)
	for _, p := range []string{"file-link", "dir-link/secret.txt", "dir-link", "chained-link", "slash/etc/passwd", "dir-link/nothing-here"} {
		_, err := r.Resolve("", p)
		oe := refused(t, err, p, root)
		if !oe.Symlink || !strings.Contains(err.Error(), "through a symlink") {
			t.Errorf("%s: %v, want it blamed on a symlink", p, err)
		}
		if _, err := r.Open("", p, os.O_RDONLY); !errors.Is(err, ErrOutside) {
			t.Errorf("Open(%q): %v, want refused", p, err)
		}
	}
}

func TestSymlinksInsideTheRootAreFollowed(t *testing.T) {
	root, _ := tree(t)
	must(t, os.Symlink("dir/b.txt", root+"/rel-link"))
	must(t, os.Symlink(root+"/dir", root+"/abs-dir-link"))
	must(t, os.MkdirAll(root+"/x/y", 0o755))
	must(t, os.Symlink("../../dir", root+"/x/y/up"))
	r := newRoot(t, root)
	for _, c := range []struct{ path, want string }{
		{"rel-link", root + "/dir/b.txt"},
		{"abs-dir-link/b.txt", root + "/dir/b.txt"},
		// ".." after a symlink goes to the target's parent, as in the kernel.
		{"x/y/up/../a.txt", root + "/a.txt"},
	} {
		got, err := r.Resolve("", c.path)
		if err != nil || got != c.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", c.path, got, err, c.want)
			continue
		}
		f, err := r.Open("", c.path, os.O_RDONLY)
		must(t, err)
		f.Close()
	}
}

func TestRootGivenThroughASymlink(t *testing.T) {
	root, _ := tree(t)
	link := filepath.Join(t.TempDir(), "root-link")
	must(t, os.Symlink(root, link))
	r := newRoot(t, link)
	if r.Dir() != root {
		t.Fatalf("Dir() = %s, want the real path %s", r.Dir(), root)
	}
	f, err := r.Open("", link+"/a.txt", os.O_RDONLY)
	must(t, err)
	if got := readAll(t, f); got != "a" {
		t.Errorf("read %q", got)
	}
}

func TestMissingPathsInsideAreNotRefused(t *testing.T) {
	root, _ := tree(t)
	r := newRoot(t, root)
	got, err := r.Resolve("", "dir/nope/../x.txt")
	if err != nil || !strings.HasPrefix(got, root+"/") {
		t.Fatalf("Resolve of a missing path = %q, %v", got, err)
	}
	_, err = r.Open("", "nope.txt", os.O_RDONLY)
	if !errors.Is(err, os.ErrNotExist) || errors.Is(err, ErrOutside) {
		t.Fatalf("Open of a missing file: %v, want not-exist", err)
	}
	_, err = r.Open("", "a.txt/x", os.O_RDONLY)
	if err == nil || errors.Is(err, ErrOutside) {
		t.Fatalf("Open under a file: %v, want ENOTDIR", err)
	}
}

func TestSymlinkLoopIsAnErrorNotAHang(t *testing.T) {
	root, _ := tree(t)
	must(t, os.Symlink("loop2", root+"/loop1"))
	must(t, os.Symlink("loop1", root+"/loop2"))
	r := newRoot(t, root)
	_, err := r.Resolve("", "loop1/x")
	if err == nil || errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), "symbolic links") {
		t.Fatalf("loop: %v", err)
	}
}

func TestCreateInsideAndRefuseOutside(t *testing.T) {
	root, outside := tree(t)
	r := newRoot(t, root)
	f, err := r.Open("", "dir/new.txt", os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	must(t, err)
	f.Close()
	if _, err := os.Stat(root + "/dir/new.txt"); err != nil {
		t.Fatal(err)
	}
	_, err = r.Open("", "../outside/new.txt", os.O_WRONLY|os.O_CREATE)
	refused(t, err, "../outside/new.txt", root)
	if _, err := os.Stat(outside + "/new.txt"); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a refused create made the file")
	}
}

// TestSpillDirectoryIsAllowed: the session's spill directory lies outside
// the root, yet its files stay readable; it is named by a function since it
// is made on first need.
func TestSpillDirectoryIsAllowed(t *testing.T) {
	root, outside := tree(t)
	spillDir := filepath.Join(t.TempDir(), "spillway-1-abc")
	var current atomic.Value
	current.Store(held{})
	r := newRoot(t, root).With(func() (string, fs.FileInfo) { h := current.Load().(held); return h.dir, h.id })

	spilled := spillDir + "/bash-1-stdout.log"
	if _, err := r.Resolve("", spilled); !errors.Is(err, ErrOutside) {
		t.Fatalf("before the spill directory exists: %v, want refused", err)
	}
	must(t, os.Mkdir(spillDir, 0o700))
	write(t, spilled, "full output")
	current.Store(hold(t, spillDir))

	f, err := r.Open("", spilled, os.O_RDONLY)
	must(t, err)
	if got := readAll(t, f); got != "full output" {
		t.Errorf("read %q", got)
	}
	if !r.Contains(spilled) {
		t.Error("Contains(spill file) = false")
	}
	// Only the spill directory: its neighbours stay outside, and a symlink
	// planted in it does not lead out either.
	_, err = r.Resolve("", spillDir+"/../other")
	refused(t, err, spillDir+"/../other", root)
	must(t, os.Symlink(outside+"/secret.txt", spillDir+"/planted"))
	_, err = r.Open("", spillDir+"/planted", os.O_RDONLY)
	refused(t, err, spillDir+"/planted", root)
	// The Root it was made from does not allow it.
	if _, err := newRoot(t, root).Resolve("", spilled); !errors.Is(err, ErrOutside) {
		t.Error("With changed the original Root")
	}
}

// A held directory: its path and its identity as its owner saw it.
type held struct {
	dir string
	id  fs.FileInfo
}

func hold(t *testing.T, dir string) held {
	t.Helper()
	fi, err := os.Lstat(dir)
	must(t, err)
	return held{dir, fi}
}

// TestSwappedSpillDirectoryIsRefused: the allowed spill directory is bound
// to its identity. Moved away and replaced by a symlink out of the root,
// or by another directory (holding a hard link or a symlink to a file
// outside), its path allows nothing: not the symlink's target, not the
// impostor's files.
func TestSwappedSpillDirectoryIsRefused(t *testing.T) {
	root, outside := tree(t)
	tmp := t.TempDir()
	spillDir := filepath.Join(tmp, "spillway-1-abc")
	must(t, os.Mkdir(spillDir, 0o700))
	write(t, spillDir+"/bash-1-stdout.log", "full output")
	h := hold(t, spillDir)
	r := newRoot(t, root).With(func() (string, fs.FileInfo) { return h.dir, h.id })
	must(t, os.Rename(spillDir, tmp+"/old"))

	// A symlink to the outside in its place.
	must(t, os.Symlink(outside, spillDir))
	for _, p := range []string{spillDir + "/secret.txt", spillDir + "/../old/bash-1-stdout.log"} {
		if _, err := r.Open("", p, os.O_RDONLY); !errors.Is(err, ErrOutside) {
			t.Errorf("open %s through a swapped spill directory: %v, want refused", p, err)
		}
	}
	// Another directory in its place.
	must(t, os.Remove(spillDir))
	must(t, os.Mkdir(spillDir, 0o700))
	write(t, spillDir+"/bash-1-stdout.log", "impostor")
	if f, err := r.Open("", spillDir+"/bash-1-stdout.log", os.O_RDONLY); !errors.Is(err, ErrOutside) {
		got := ""
		if err == nil {
			got = readAll(t, f)
		}
		t.Errorf("open in an impostor spill directory: %q, %v; want refused", got, err)
	}
	if r.Contains(spillDir + "/bash-1-stdout.log") {
		t.Error("Contains allows the impostor")
	}
}

func TestNilRootAllowsEverything(t *testing.T) {
	var r *Root
	_, outside := tree(t)
	got, err := r.Resolve(outside, "../outside/secret.txt")
	if err != nil || got != outside+"/secret.txt" {
		t.Fatalf("Resolve = %q, %v", got, err)
	}
	f, err := r.Open(outside, "secret.txt", os.O_RDONLY)
	must(t, err)
	if readAll(t, f) != "secret" || !r.Contains("/etc") || r.Dir() != "" || r.With(nil) != nil {
		t.Fatal("a nil Root refused something")
	}
}

// TestSwapAfterCheckIsRefused replaces a checked directory with a symlink
// out of the root between the check and the open.
func TestSwapAfterCheckIsRefused(t *testing.T) {
	for _, mode := range openModes {
		t.Run(mode, func(t *testing.T) {
			root, outside := tree(t)
			write(t, outside+"/b.txt", "secret")
			r := newRoot(t, root)
			setOpenMode(t, mode)
			testHookBeforeOpen = func() {
				must(t, os.Rename(root+"/dir", root+"/dir.old"))
				must(t, os.Symlink(outside, root+"/dir"))
			}
			defer func() { testHookBeforeOpen = nil }()
			f, err := r.Open("", "dir/b.txt", os.O_RDONLY)
			if err == nil {
				t.Fatalf("opened %q through a swapped symlink", readAll(t, f))
			}
			oe := refused(t, err, "dir/b.txt", root)
			if !oe.Changed {
				t.Errorf("error %v does not say the path changed", err)
			}
		})
	}
}
