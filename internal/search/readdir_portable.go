//go:build !linux || spillway_portable

package search

import (
	"github.com/spillway-dev/spillway/internal/confine"
)

// readDir lists a directory through os.File.ReadDir, which gives each
// entry's type from the file system's own listing where it has one
// (getdirentries on macOS and the BSDs) and stats only where it does not.
// It skips "." and "..". Each entry's path is rel joined with its name.
func readDir(_ *walkRoot, rel, path string, dl *direntList, root *confine.Root) ([]dirent, error) {
	f, err := openDir(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := root.CheckFile(f); err != nil { // changed since the check
		return nil, err
	}
	des, err := f.ReadDir(-1)
	if err != nil && len(des) == 0 {
		return nil, err
	}
	for _, de := range des {
		dl.add(rel, []byte(de.Name()), de.Type())
	}
	return dl.take(), nil // what could be read, as the getdents64 path does
}
