//go:build !linux

package safewrite

import "os"

// copyXattrs copies no extended attributes here: only Linux's are
// carried over (docs/tools.md says so).
func copyXattrs(src, dst *os.File) (int, []string) { return 0, nil }

// allocate reserves nothing: the in-place write may fail part way on a
// full disk where the file system cannot reserve space ahead.
func allocate(*os.File, int64) error { return nil }
