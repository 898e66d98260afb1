package spill

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Sweep removes the session directories in tempDir ("" for os.TempDir())
// that no live session holds, as a crashed or killed server leaves them.
// Liveness is the directory's lock, which its session holds for its whole
// life: a pid says nothing across PID namespaces or after reuse. It
// returns the directories removed.
func Sweep(tempDir string) []string {
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	parent, real, err := openParent(tempDir)
	if err != nil {
		return nil
	}
	defer parent.Close()
	entries, err := fs.ReadDir(parent.FS(), ".")
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !isSessionName(name) {
			continue // spillway-<uid> (the CLI's) or something else
		}
		if sweepOne(parent, real, name) {
			removed = append(removed, filepath.Join(real, name))
		}
	}
	return removed
}

// sweepOne removes the session directory name if it is this user's and
// its lock can be taken.
func sweepOne(parent *os.Root, parentPath, name string) bool {
	if fi, err := parent.Lstat(name); err != nil || checkOwned(name, fi) != nil {
		return false
	}
	d, err := openPrivate(parent, parentPath, name)
	if err != nil {
		return false
	}
	defer d.close()
	if ok, err := d.lock(); err != nil || !ok {
		return false
	}
	return d.removeFrom(parent) == nil
}

// isSessionName reports whether name has the shape of a session
// directory, spillway-<pid>-<random>: a directory of the user's that only
// starts the same way (spillway-soak-123, a workspace) is not one.
func isSessionName(name string) bool {
	f := strings.Split(name, "-")
	if len(f) != 3 || f[0] != "spillway" || f[1] == "" || f[2] == "" {
		return false
	}
	for _, c := range f[1] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
