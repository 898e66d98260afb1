package search

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// resolve turns a path parameter into an absolute path: relative paths
// resolve against cwd, "~" against the home directory, "" is cwd.
func resolve(cwd, p string) string {
	switch {
	case p == "":
		return cwd
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}

// displayBase is what is put in front of a walk-relative path to show it:
// the root relative to cwd when it lies under cwd, else the absolute root;
// "" for cwd itself.
func displayBase(cwd, root string) string {
	rel, err := filepath.Rel(cwd, root)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(root) + "/"
	}
	if rel == "." {
		return ""
	}
	return filepath.ToSlash(rel) + "/"
}

// cleanPath makes a path safe to show on one line: control characters
// become '?' and invalid UTF-8 becomes U+FFFD.
func cleanPath(p string) string {
	clean := true
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(p) {
		return p
	}
	p = strings.ToValidUTF8(p, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, p)
}

// statRoot checks the path a search starts from. A missing path and a
// special file (FIFO, socket, device) are errors that say so; it never
// opens the path, so a FIFO cannot block it.
func statRoot(tool, display, abs string) (fs.FileInfo, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%s: path not found: %s. Use find or ls to locate it", tool, display)
		}
		return nil, fmt.Errorf("%s: cannot access %s: %v", tool, display, unwrapPathError(err))
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %s is %s, not a file or directory that can be searched", tool, display, describeMode(fi.Mode()))
	}
	return fi, nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "a special file"
}

// unwrapPathError returns the bare reason of a *fs.PathError ("permission
// denied"), since the path is shown beside it.
func unwrapPathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
