package files

import "strings"

// resolve returns the absolute path of the path parameter p. With a Root
// (--root) it is the real path, symlinks followed, or an error
// that says why p is refused.
func (t *Tools) resolve(p string) (string, error) {
	if t.cfg.Root == nil {
		return resolvePath(t.cfg.Cwd, p), nil
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = resolvePath(t.cfg.Cwd, p)
	}
	return t.cfg.Root.Resolve(t.cfg.Cwd, p)
}
