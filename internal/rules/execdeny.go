package rules

import "strings"

// ExecDenied sorts the deny rules of s by what the sandbox can hold at
// exec: names are the programs of the rules that name a program alone
// (`rm`, `rm *`, `rm:*`, Codex's ["rm"]), whose every file can be denied;
// parserOnly are the other deny rules (`git push *`, a glob, a path),
// which hold only where the checker sees the command.
func (s *Set) ExecDenied() (names []string, byName map[string][]Rule, parserOnly []Rule) {
	byName = map[string][]Rule{}
	for _, r := range s.Rules {
		if r.Decision != Deny {
			continue
		}
		p := r.Pattern
		if p.Glob != nil || p.Exact != "" || p.OpenLast || len(p.Words) != 1 || !allBare(p.Words[0]) {
			parserOnly = append(parserOnly, r)
			continue
		}
		for _, name := range p.Words[0] {
			if _, seen := byName[name]; !seen {
				names = append(names, name)
			}
			byName[name] = append(byName[name], r)
		}
	}
	return names, byName, parserOnly
}

// allBare reports whether every word is a bare program name: no path,
// no glob.
func allBare(words []string) bool {
	for _, w := range words {
		if w == "" || w == "." || w == ".." || strings.ContainsAny(w, "/*?[\\") {
			return false
		}
	}
	return len(words) > 0
}
