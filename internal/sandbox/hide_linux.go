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
//
// Each file of hidden (the audit log, the token) is covered by /dev/null,
// wherever it is, the root included: reading it gives nothing, and
// writing it reaches nothing. One that a hidden directory covers
// already, or that does not exist, is left alone.
func hide(hidden, shown []string) error {
	var files []string
	for _, h := range hidden {
		if f, ok := realFile(h); ok {
			files = append(files, f)
			continue
		}
		h, ok := realDir(h)
		if !ok {
			continue
		}
		under, kept := shownBeneath(h, shown)
		if kept {
			continue
		}
		if err := coverDir(h, under); err != nil {
			return err
		}
	}
	for _, f := range files {
		if _, ok := realFile(f); !ok {
			continue // under a directory hidden above
		}
		if err := unix.Mount(os.DevNull, f, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("hiding %s: %w", f, err)
		}
	}
	return nil
}

// shownBeneath returns the outermost real directories of shown that lie
// in the directory h (a real path), and whether h itself is one of them
// (the root): then it is not hidden.
func shownBeneath(h string, shown []string) (under []string, kept bool) {
	for _, s := range shown {
		if s, ok := realDir(s); ok && within(s, h) {
			kept = kept || s == h
			under = append(under, s)
		}
	}
	if kept {
		return nil, true
	}
	return outermost(under), false
}

// coverDir covers the directory h with an empty tmpfs and mounts the
// directories under, beneath it, back on it as they were.
func coverDir(h string, under []string) error {
	// Each directory to show again, cloned (with the mounts beneath it)
	// before the tmpfs covers its path.
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
	return nil
}

// realFile returns the real path of f, when it is a regular file, a FIFO
// or a socket: an audit log on /dev/stdout, which resolves to a device
// or a pipe of whichever process asks, is not a file to hide.
func realFile(f string) (string, bool) {
	real, err := filepath.EvalSymlinks(f)
	if err != nil {
		return "", false
	}
	fi, err := os.Lstat(real)
	if err != nil || !(fi.Mode().IsRegular() || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) != 0) {
		return "", false
	}
	return real, true
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
