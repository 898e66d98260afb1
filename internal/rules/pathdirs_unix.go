//go:build unix

package rules

import (
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// A dirStamp is what says a directory changed: its inode and change
// time (zero for one that does not exist).
type dirStamp struct {
	ino     uint64
	changed time.Time
}

func stampOf(d string) dirStamp {
	var st unix.Stat_t
	if unix.Stat(d, &st) != nil {
		return dirStamp{}
	}
	return dirStamp{ino: uint64(st.Ino), changed: time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))}
}

// userCanWrite reports whether this user can write dir. As root every
// directory is writable, and counting them all would make every allow
// ask: there a directory only root can write (owned by root, not group
// or other writable) counts as the system's, unless it is under HOME,
// the working directory or the temp directory, where the session's own
// installs go.
func userCanWrite(dir, cwd string) bool {
	if unix.Access(dir, unix.W_OK) != nil {
		return false
	}
	if os.Geteuid() != 0 {
		return true
	}
	var st unix.Stat_t
	if unix.Stat(dir, &st) != nil {
		return true
	}
	if st.Uid != 0 || st.Mode&0o022 != 0 {
		return true
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	home, _ := os.UserHomeDir()
	return underAny(real, home, cwd, os.TempDir()) || underAny(dir, home, cwd, os.TempDir())
}
