//go:build !spillway_portable

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// hide covers each directory of hidden with an empty tmpfs in the
// command's mount namespace, then mounts back on it, as they were, the
// directories of shown that lie beneath it: the command sees, under the
// spill directories' parent, its own session's directory and nothing of
// the other sessions', and nothing at all of the token's directory. A
// directory that does not exist, or that is itself to be shown (a token
// file kept in the root), is left alone. The tmpfs becomes
// read-only with the rest of the file system (mountReadOnly).
func hide(hidden, shown []string) error {
	for _, h := range hidden {
		h, ok := realDir(h)
		if !ok {
			continue
		}
		var under []string
		kept := false // h itself is to be seen (the root): not hidden
		for _, s := range shown {
			if s, ok := realDir(s); ok && within(s, h) {
				kept = kept || s == h
				under = append(under, s)
			}
		}
		if kept {
			continue
		}
		under = outermost(under)
		// Each directory to show again, cloned (with the mounts beneath
		// it) before the tmpfs covers its path.
		clones := make([]int, 0, len(under))
		defer func() {
			for _, fd := range clones {
				unix.Close(fd)
			}
		}()
		for _, s := range under {
			fd, err := unix.OpenTree(unix.AT_FDCWD, s, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
			if err != nil {
				return fmt.Errorf("keeping %s: %w", s, err)
			}
			clones = append(clones, fd)
		}
		if err := unix.Mount("tmpfs", h, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
			return fmt.Errorf("hiding %s: %w", h, err)
		}
		for i, s := range under {
			if err := os.MkdirAll(s, 0o755); err != nil {
				return fmt.Errorf("showing %s: %w", s, err)
			}
			if err := unix.MoveMount(clones[i], "", unix.AT_FDCWD, s, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
				return fmt.Errorf("showing %s: %w", s, err)
			}
		}
	}
	return nil
}

// realDir returns the real path of the directory d.
func realDir(d string) (string, bool) {
	real, err := filepath.EvalSymlinks(d)
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", false
	}
	return real, true
}

// within reports whether path is dir or lies beneath it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// outermost drops the directories that lie beneath another of dirs.
func outermost(dirs []string) []string {
	slices.Sort(dirs)
	var out []string
	for _, d := range dirs {
		if len(out) == 0 || !within(d, out[len(out)-1]) {
			out = append(out, d)
		}
	}
	return out
}
