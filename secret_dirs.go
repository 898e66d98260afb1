package spillway

import (
	"fmt"
	"path/filepath"

	"github.com/spillway-dev/spillway/internal/spill"
)

// secretDirs are the directories Options.SandboxHidden names (a server's
// token directory, the console's links and sockets), each as given and
// as its symlinks resolve. The sandbox hides them from commands; the
// file tools keep out of them too, since --root may hold one (a token
// under ~/.config with --root ~) and read, grep or find would otherwise
// show a sandboxed session the secret that drives or answers its own
// server.
func secretDirs(hidden []string) []string {
	var dirs []string
	for _, d := range hidden {
		if d == "" {
			continue
		}
		d = filepath.Clean(d)
		dirs = append(dirs, d)
		if real, err := filepath.EvalSymlinks(d); err == nil && real != d {
			dirs = append(dirs, real)
		}
	}
	return dirs
}

// secretOf is the secret directory that holds one of paths ("" none).
// The session's own spill directories stay open, as the sandbox shows
// them: a spill store may sit in a token directory
// ($XDG_RUNTIME_DIR/spillway).
func (t *Toolset) secretOf(paths ...string) string {
	for _, p := range paths {
		if t.ownSpill(p) {
			continue
		}
		for _, d := range t.secretDirs {
			if within(p, d) {
				return d
			}
		}
	}
	return ""
}

// ownSpill reports whether path is in one of the session's spill
// directories.
func (t *Toolset) ownSpill(path string) bool {
	for _, s := range []*spill.Store{t.spill, t.scratch} {
		if s != nil && s.Dir() != "" && within(path, s.Dir()) {
			return true
		}
	}
	return false
}

// secretRefusal is a file tool's refusal of a path under a secret
// directory: no rule and no answer opens it.
func secretRefusal(path, dir string) string {
	return fmt.Sprintf("[refused: %s is under %s, which holds spillway's own secrets (a server's token, the console's links): no tool reads or changes it]", path, dir)
}

// withSecretDirs returns hide, for ls, find and grep, keeping the secret
// directories out as well: hidden by "spillway's own secrets". The path
// is compared as given: ls and the search ask each path also as it really
// is when their directory is reached through a symlink, and they follow
// no symlink below it, so resolving every walked path again here (a
// system call per part of it) would only cost time.
func (t *Toolset) withSecretDirs(hide func(path string, contents bool) string) func(path string, contents bool) string {
	if len(t.secretDirs) == 0 {
		return hide
	}
	return func(path string, contents bool) string {
		if d := t.secretOf(path); d != "" {
			return "spillway's own secrets (" + d + ")"
		}
		if hide == nil {
			return ""
		}
		return hide(path, contents)
	}
}
