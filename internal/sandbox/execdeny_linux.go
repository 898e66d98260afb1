//go:build !spillway_portable

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// readRules are the Landlock rules that grant reading and executing
// everything but the files of denied. Landlock only adds access, and a
// rule on a directory covers all beneath it, so they are the complement:
// each directory on the way to a denied file may only be listed, and
// every other entry of it is granted in full (a directory with all
// beneath it, a file alone); the denied file gets nothing. A symbolic
// link is granted nothing itself: what it leads to is checked where it
// is. An entry made after the rules are (a program installed later, a
// file replaced by a new one) gets no access either. Without denied
// files, the whole file system is granted.
func readRules(denied []string) ([]landlock.Rule, error) {
	if len(denied) == 0 {
		return []landlock.Rule{landlock.RODirs("/")}, nil
	}
	dirs, files, listed, err := complement(denied)
	if err != nil {
		return nil, err
	}
	return []landlock.Rule{
		landlock.PathAccess(ll.AccessFSReadDir, listed...).IgnoreIfMissing(),
		landlock.RODirs(dirs...).IgnoreIfMissing(),
		landlock.ROFiles(files...).IgnoreIfMissing(),
	}, nil
}

// complement splits the file system around the real paths of denied:
// listed are the directories on the way to a denied file, dirs and files
// the other entries of those directories (symbolic links left out).
func complement(denied []string) (dirs, files, listed []string, err error) {
	deny, err := outermostDenied(denied)
	if err != nil {
		return nil, nil, nil, err
	}
	along := map[string]bool{}
	for f := range deny {
		for d := filepath.Dir(f); ; d = filepath.Dir(d) {
			along[d] = true
			if d == "/" {
				break
			}
		}
	}
	for d := range along {
		listed = append(listed, d)
	}
	slices.Sort(listed)
	for _, d := range listed {
		entries, err := os.ReadDir(d)
		if errors.Is(err, os.ErrNotExist) {
			continue // nothing in it to grant
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("listing %s to deny the programs in it: %w", d, err)
		}
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			switch {
			case deny[p] || along[p]:
			case e.Type()&os.ModeSymlink != 0:
			case e.IsDir():
				dirs = append(dirs, p)
			default:
				files = append(files, p)
			}
		}
	}
	return dirs, files, listed, nil
}

// outermostDenied checks that each denied path is clean and absolute
// and returns the set of them, less those beneath another: a denied
// directory denies all in it, and listing it would grant its other
// entries.
func outermostDenied(denied []string) (map[string]bool, error) {
	deny := map[string]bool{}
	for _, f := range denied {
		if !filepath.IsAbs(f) || filepath.Clean(f) != f || f == "/" {
			return nil, fmt.Errorf("denied file %q is not a clean absolute path", f)
		}
		deny[f] = true
	}
	for f := range deny {
		for d := filepath.Dir(f); ; d = filepath.Dir(d) {
			if deny[d] {
				delete(deny, f)
				break
			}
			if d == "/" {
				break
			}
		}
	}
	return deny, nil
}
