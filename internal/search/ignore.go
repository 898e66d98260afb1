package search

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Ignore files, in the order they are consulted: every .ignore file (the
// nearest directory first), then every .gitignore, then the repository's
// .git/info/exclude. The first file that has a matching rule decides, and
// within a file the last matching rule wins. This is git's order for
// .gitignore and info/exclude, with ripgrep's .ignore on top.
//
// Why not go-git's plumbing/format/gitignore: measured on the tree of
// TestIgnoreConformsToGit, it disagrees with `git ls-files` on 5 files
// (it reads "[!a]" as a literal '!', misses git's "foo**/bar" prefix
// rule, and one nested negation), and it brings 41 modules into the build.
// This file parses as git's dir.c does and matches with a port of git's
// wildmatch.c (wildmatch.go), and agrees with git on that tree.
const (
	dotIgnoreName = ".ignore"
	gitIgnoreName = ".gitignore"
	gitDirName    = ".git"
	excludePath   = ".git/info/exclude"
)

// maxIgnoreFile bounds how much of one ignore file is read.
const maxIgnoreFile = 4 << 20

// An ignoreRule is one pattern line of an ignore file, parsed as git's
// parse_path_pattern does.
type ignoreRule struct {
	pattern string // no '!', no trailing '/', no leading '/'
	negate  bool   // "!pattern": re-include
	dirOnly bool   // "pattern/": directories only
	// basename: the pattern has no '/' (other than a trailing one), so it
	// matches the name of an entry at any depth below the file's directory.
	basename bool
	// prefix is the length of the pattern's leading part without glob
	// specials ("*?[\"), matched literally before the rest.
	prefix int
}

// ignoreRules are the rules of one ignore file, in file order.
type ignoreRules struct {
	rules []ignoreRule
}

// parseIgnore parses the text of a .gitignore-style file.
func parseIgnore(data []byte) *ignoreRules {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var rs ignoreRules
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if r, ok := parseIgnoreLine(string(line)); ok {
			rs.rules = append(rs.rules, r)
		}
	}
	return &rs
}

// parseIgnoreLine parses one line; ok is false for blank lines, comments
// and patterns that can match nothing.
func parseIgnoreLine(line string) (ignoreRule, bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return ignoreRule{}, false
	}
	line = trimTrailingSpaces(line)
	var r ignoreRule
	if strings.HasPrefix(line, "!") {
		r.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = line[:len(line)-1]
	}
	r.basename = !strings.Contains(line, "/")
	r.prefix = simpleLength(line)
	if strings.HasPrefix(line, "/") {
		line = line[1:]
		r.prefix--
	}
	if line == "" {
		return ignoreRule{}, false
	}
	r.pattern = line
	return r, true
}

// trimTrailingSpaces drops trailing spaces that are not quoted with a
// backslash, as git does (tabs are kept).
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// simpleLength is the length of s's leading part without glob specials.
func simpleLength(s string) int {
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			return i
		}
	}
	return len(s)
}

// match reports whether a rule matches rel (slash-separated, relative to
// the ignore file's directory), and if so whether rel is ignored.
func (rs *ignoreRules) match(rel string, isDir bool) (matched, ignored bool) {
	var base string
	for i := len(rs.rules) - 1; i >= 0; i-- {
		r := &rs.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		var ok bool
		if r.basename {
			if base == "" {
				base = rel[strings.LastIndexByte(rel, '/')+1:]
			}
			ok = r.matchBasename(base)
		} else {
			ok = r.matchPath(rel)
		}
		if ok {
			return true, !r.negate
		}
	}
	return false, false
}

func (r *ignoreRule) matchBasename(name string) bool {
	if r.prefix == len(r.pattern) {
		return name == r.pattern
	}
	// "*literal": a suffix test, as git's PATTERN_FLAG_ENDSWITH.
	if r.pattern[0] == '*' && simpleLength(r.pattern[1:]) == len(r.pattern)-1 {
		return strings.HasSuffix(name, r.pattern[1:])
	}
	return wildmatch(r.pattern, name)
}

// matchPath is git's match_pathname: the literal prefix is compared first
// and the rest of the pattern is matched as a pattern of its own.
func (r *ignoreRule) matchPath(rel string) bool {
	p := r.prefix
	if p > 0 {
		if p > len(rel) || rel[:p] != r.pattern[:p] {
			return false
		}
		if p == len(r.pattern) {
			return p == len(rel)
		}
	}
	return wildmatch(r.pattern[p:], rel[p:])
}

// An ignoreNode holds the ignore files of one directory and links to the
// nearest ancestor directory that has any. Nodes are immutable once built,
// so the walker's goroutines share them freely.
type ignoreNode struct {
	parent *ignoreNode
	// A walk-relative path becomes relative to this node's directory by
	// dropping its first strip bytes and putting prefix in front (prefix
	// is non-empty for directories above the walk root).
	prefix string
	strip  int

	dot     *ignoreRules // .ignore
	git     *ignoreRules // .gitignore
	exclude *ignoreRules // .git/info/exclude of a repository root
}

// ignored reports whether the walk-relative path rel is ignored.
func (n *ignoreNode) ignored(rel string, isDir bool) bool {
	for kind := 0; kind < 3; kind++ {
		for m := n; m != nil; m = m.parent {
			rs := m.rules(kind)
			if rs == nil {
				continue
			}
			p := rel[m.strip:]
			if m.prefix != "" {
				p = m.prefix + rel
			}
			if matched, ign := rs.match(p, isDir); matched {
				return ign
			}
		}
	}
	return false
}

func (n *ignoreNode) rules(kind int) *ignoreRules {
	switch kind {
	case 0:
		return n.dot
	case 1:
		return n.git
	default:
		return n.exclude
	}
}

// readIgnoreFile parses the ignore file at path; nil when there is none or
// it cannot be read. It never blocks: a FIFO or a device in an ignore
// file's place is opened without waiting and skipped.
func readIgnoreFile(path string) *ignoreRules {
	f, err := openRead(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if regular, _, err := f.stat(); err != nil || !regular {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxIgnoreFile))
	if err != nil {
		return nil
	}
	rs := parseIgnore(data)
	if len(rs.rules) == 0 {
		return nil
	}
	return rs
}

// dirIgnores builds the node of directory abs (walk-relative rel) from the
// names found in it, or returns parent when it has no ignore files.
func dirIgnores(parent *ignoreNode, abs, rel string, hasDot, hasGit, hasRepo bool) *ignoreNode {
	n := &ignoreNode{parent: parent}
	if rel != "" {
		n.strip = len(rel) + 1
	}
	if hasDot {
		n.dot = readIgnoreFile(filepath.Join(abs, dotIgnoreName))
	}
	if hasGit {
		n.git = readIgnoreFile(filepath.Join(abs, gitIgnoreName))
	}
	if hasRepo {
		n.exclude = readIgnoreFile(filepath.Join(abs, excludePath))
	}
	if n.dot == nil && n.git == nil && n.exclude == nil {
		return parent
	}
	return n
}

// ancestorIgnores returns the ignore files of the directories above root, up
// to the root of the git repository that contains root. Outside a
// repository no ancestor's files apply.
func ancestorIgnores(root string) *ignoreNode {
	var dirs []string
	found := false
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		dirs = append(dirs, dir)
		if _, err := os.Stat(filepath.Join(dir, gitDirName)); err == nil {
			found = true
			break
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	if !found {
		return nil
	}
	// The repository root first, so that nearer directories are children.
	var node *ignoreNode
	for i := len(dirs) - 1; i >= 0; i-- {
		dir := dirs[i]
		rel, err := filepath.Rel(dir, root)
		if err != nil {
			return nil
		}
		n := &ignoreNode{
			parent: node,
			prefix: filepath.ToSlash(rel) + "/",
			dot:    readIgnoreFile(filepath.Join(dir, dotIgnoreName)),
			git:    readIgnoreFile(filepath.Join(dir, gitIgnoreName)),
		}
		if i == len(dirs)-1 {
			n.exclude = readIgnoreFile(filepath.Join(dir, excludePath))
		}
		if n.dot != nil || n.git != nil || n.exclude != nil {
			node = n
		}
	}
	return node
}
