//go:build !linux || spillway_portable

package search

import (
	"github.com/spillway-dev/spillway/internal/confine"
)

// readDir lists a directory through os.File.ReadDir, which gives each
// entry's type from the file system's own listing where it has one
// (getdirentries on macOS and the BSDs) and stats only where it does not.
// It skips "." and "..". Each entry's path is rel joined with its name
// (built in buf).
func readDir(_ *walkRoot, rel, path string, buf []byte, root *confine.Root) ([]dirent, error) {
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
	ents := make([]dirent, 0, len(des))
	for _, de := range des {
		ents = append(ents, newDirent(&buf, rel, []byte(de.Name()), de.Type()))
	}
	return ents, nil // what could be read, as the getdents64 path does
}
