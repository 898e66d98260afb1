package search

import (
	"fmt"
	"path/filepath"
	"strings"
)

// resolve returns the absolute path of the path parameter p ("" is the
// cwd). With a Root (--root) it is the real path, symlinks
// followed, or an error that says why p is refused.
func (s *Searcher) resolve(p string) (string, error) {
	if s.cfg.Root == nil {
		return resolve(s.cfg.Cwd, p), nil
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = resolve(s.cfg.Cwd, p)
	}
	return s.cfg.Root.Resolve(s.cfg.Cwd, p)
}

// hider returns the walk's Hide for a search below root (nil without
// Config.Hide), or an error when root itself is hidden. Each path is
// asked as the walk found it and, when root is reached through a
// symlink, as it really is.
func (s *Searcher) hider(tool, arg, root string, contents bool) (func(string) string, error) {
	if s.cfg.Hide == nil {
		return nil, nil
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		real = root
	}
	hide := func(p string) string {
		if why := s.cfg.Hide(p, contents); why != "" || real == root {
			return why
		}
		return s.cfg.Hide(real+p[len(root):], contents)
	}
	if why := hide(root); why != "" {
		return nil, fmt.Errorf("%s: %s is hidden by the Read rule %s: spillway does not search it. Ask the user instead", tool, arg, why)
	}
	return hide, nil
}
