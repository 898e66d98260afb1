package spill

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// openCLIDir opens (making them if missing) the CLI's spill directory and
// the per-user directory above it, each checked to be a real directory of
// this user: $TMPDIR/spillway-<uid>/cli/ when the temp directory is this
// user's alone, so that nobody else can make spillway-<uid> first. In a
// temp directory others may write in (/tmp), where another user could
// make it first and so stop every save, it is $XDG_RUNTIME_DIR/spillway/cli/,
// or else <the user's cache directory>/spillway/cli/; with neither, the
// temp directory all the same, with the checks.
func openCLIDir(tempDir string) (*privateDir, error) {
	if !ownDirectory(tempDir) {
		for _, base := range userDirs() {
			if d, err := openCLIDirIn(base, "spillway"); err == nil {
				return d, nil
			}
		}
	}
	return openCLIDirIn(tempDir, fmt.Sprintf("spillway-%d", os.Geteuid()))
}

// openCLIDirIn opens base/name/cli, making name and cli if missing.
func openCLIDirIn(base, name string) (*privateDir, error) {
	parent, real, err := openParent(base)
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	user, err := openPrivate(parent, real, name)
	if err != nil {
		return nil, err
	}
	defer user.close()
	return openPrivate(user.root, user.path, "cli")
}

// userDirs are the directories of this user where the CLI's spill
// directory may go, best first: the runtime directory (never under a
// project, gone at logout) when it is private to this user, and the
// cache directory, made if missing.
func userDirs() []string {
	var dirs []string
	if d := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) && privateDirectory(d) {
		dirs = append(dirs, d)
	}
	if d, err := os.UserCacheDir(); err == nil && filepath.IsAbs(d) {
		if err := os.MkdirAll(d, 0o700); err == nil || errors.Is(err, os.ErrExist) {
			if ownDirectory(d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// ownDirectory reports whether d (symlinks resolved) is a directory of
// this user in which no one else may make an entry.
func ownDirectory(d string) bool {
	fi, err := os.Stat(d)
	if err != nil || !fi.IsDir() {
		return false
	}
	uid, ok := ownerUID(fi)
	return ok && uid == os.Geteuid() && fi.Mode().Perm()&0o022 == 0
}

// privateDirectory reports whether d is a directory of this user that no
// one else may enter.
func privateDirectory(d string) bool {
	fi, err := os.Stat(d)
	return err == nil && ownDirectory(d) && fi.Mode().Perm()&0o077 == 0
}
