package search

import "strings"

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
