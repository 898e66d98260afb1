//go:build !unix

package rules

import (
	"os"
	"time"
)

// A dirStamp is what says a directory changed: its modification time
// (zero for one that does not exist).
type dirStamp struct {
	changed time.Time
}

func stampOf(d string) dirStamp {
	fi, err := os.Stat(d)
	if err != nil {
		return dirStamp{}
	}
	return dirStamp{changed: fi.ModTime()}
}

// userCanWrite reports whether this user may write dir: without a
// portable access check, a directory that is not read-only counts.
func userCanWrite(dir, cwd string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.Mode().Perm()&0o200 != 0
}
