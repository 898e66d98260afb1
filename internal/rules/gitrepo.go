package rules

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// git finds its repository from the directory it runs in, walking up:
// a .git directory, a .git file naming one (gitdir: …), or the
// directory itself shaped as a repository (a bare one). What it finds
// may send it on: a commondir file names where the config, objects
// and refs are, and config.worktree adds configuration. A repository
// an earlier command made (HEAD, objects, refs and a config naming
// core.fsmonitor, written where any command may write) would run that
// code on an allowed git status. So a git part is checked against the
// repository git would use from its directory: a repository directory
// not named .git, a .git file or commondir pointing outside a .git
// directory, or a config naming code git runs (the keys of codeKeys,
// includes among them, which are not followed) keeps it from being
// allowed.

// gitRepoRisk is the reason git run in dir would use a repository
// that keeps it from being allowed, or "". Every directory on the way
// up that git might take for a repository is checked, up to the first
// git surely takes (HEAD, objects and refs); the walk stops at /, or
// at a directory of GIT_CEILING_DIRECTORIES, which git does not enter.
// It does not stop where the file system changes, as git does by
// default: walking further only checks more.
func (c *checker) gitRepoRisk(dir string) string {
	if !filepath.IsAbs(dir) {
		return ""
	}
	if r, ok := c.gitRepoRisks[dir]; ok {
		return r
	}
	r := c.walkGitRepoRisk(dir)
	if c.gitRepoRisks == nil {
		c.gitRepoRisks = map[string]string{}
	}
	c.gitRepoRisks[dir] = r
	return r
}

// walkGitRepoRisk is gitRepoRisk's walk up from dir.
func (c *checker) walkGitRepoRisk(dir string) string {
	ceil := c.ceilings()
	for d := filepath.Clean(dir); ; {
		if r, sure := c.candidateRisk(d); r != "" || sure {
			return r
		}
		up := filepath.Dir(d)
		if up == d || slices.Contains(ceil, up) {
			return ""
		}
		d = up
	}
}

// candidateRisk is gitCandidateRisk of d, each directory read once a
// check: walks from different directories share their parents.
func (c *checker) candidateRisk(d string) (string, bool) {
	if a, ok := c.gitCandidates[d]; ok {
		return a.risk, a.sure
	}
	r, sure := gitCandidateRisk(d)
	if c.gitCandidates == nil {
		c.gitCandidates = map[string]gitCandidate{}
	}
	c.gitCandidates[d] = gitCandidate{r, sure}
	return r, sure
}

// A gitCandidate is gitCandidateRisk's answer for a directory.
type gitCandidate struct {
	risk string
	sure bool
}

// ceilings are the directories of GIT_CEILING_DIRECTORIES git runs with.
func (c *checker) ceilings() []string {
	v, ok := "", false
	if c.env != nil && c.env.Env != nil {
		v, ok = c.env.Env["GIT_CEILING_DIRECTORIES"]
	}
	if !ok {
		v = os.Getenv("GIT_CEILING_DIRECTORIES")
	}
	var out []string
	for _, d := range filepath.SplitList(v) {
		if filepath.IsAbs(d) {
			out = append(out, filepath.Clean(d))
		}
	}
	return out
}

// gitCandidateRisk checks the directory d as git's discovery does: its
// .git (directory or file), else d itself as a bare repository. sure
// says git would take what was found and look no further up.
func gitCandidateRisk(d string) (risk string, sure bool) {
	dotgit := filepath.Join(d, ".git")
	if fi, err := os.Stat(dotgit); err == nil {
		switch {
		case fi.Mode().IsRegular():
			target, err := readGitFile(dotgit)
			if err != nil {
				return fmt.Sprintf("git reads %s, a .git file spillway cannot read (%v), which may point git at any repository", dotgit, err), true
			}
			if !inDotGit(target) {
				return fmt.Sprintf("git reads %s, a .git file pointing at %s, a directory outside any .git directory, whose config names programs git runs", dotgit, target), true
			}
			if r, sure := gitDirRisk(target); r != "" || sure {
				return r, true
			}
		case fi.IsDir():
			if r, sure := gitDirRisk(dotgit); r != "" || sure {
				return r, sure
			}
		}
	}
	if !looksLikeGitDir(d) {
		return "", false
	}
	if filepath.Base(d) == ".git" {
		return gitDirRisk(d)
	}
	return fmt.Sprintf("git runs in %s, a repository directory not named .git (HEAD and config or objects), whose config names programs git runs", d), true
}

// gitDirRisk checks the repository directory g (a .git directory, or
// the one a .git file names): its commondir, and the configuration git
// reads from it. sure: g holds HEAD, objects and refs (in it or its
// common directory), so git takes it.
func gitDirRisk(g string) (string, bool) {
	if !looksLikeGitDir(g) {
		return "", false
	}
	common := g
	if b, err := readSmall(filepath.Join(g, "commondir")); err == nil {
		t := strings.TrimSpace(string(b))
		if !filepath.IsAbs(t) {
			t = filepath.Join(g, t)
		}
		common = filepath.Clean(t)
		if !inDotGit(common) {
			return fmt.Sprintf("%s/commondir sends git to %s, a directory outside any .git directory, whose config names programs git runs", g, common), true
		}
	} else if !os.IsNotExist(err) {
		return fmt.Sprintf("git reads %s/commondir, which spillway cannot read (%v)", g, err), true
	}
	files := []string{filepath.Join(common, "config"), filepath.Join(g, "config.worktree")}
	if common != g {
		files = append(files, filepath.Join(g, "config"), filepath.Join(common, "config.worktree"))
	}
	for _, f := range files {
		if r := configCodeRisk(f); r != "" {
			return r, true
		}
	}
	return "", isDir(filepath.Join(common, "objects")) && isDir(filepath.Join(common, "refs"))
}

// looksLikeGitDir reports whether git might take d for a repository
// directory: a HEAD beside a config, a commondir, or objects and refs.
// It is looser than git's own test, so that nothing git takes is
// passed over.
func looksLikeGitDir(d string) bool {
	if _, err := os.Lstat(filepath.Join(d, "HEAD")); err != nil {
		return false
	}
	return besideHEAD(d)
}

// besideHEAD reports whether d holds what, beside a HEAD, makes git take
// it for a repository directory: a config, a commondir, a
// config.worktree, or objects and refs.
func besideHEAD(d string) bool {
	for _, f := range []string{"config", "commondir", "config.worktree"} {
		if _, err := os.Lstat(filepath.Join(d, f)); err == nil {
			return true
		}
	}
	return isDir(filepath.Join(d, "objects")) || isDir(filepath.Join(d, "refs"))
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// inDotGit reports whether p is a directory named .git or inside one:
// where a repository, its worktrees (.git/worktrees/NAME) and its
// submodules (.git/modules/NAME) live, and where no command writes
// without a question.
func inDotGit(p string) bool {
	return slices.Contains(strings.Split(filepath.Clean(p), string(filepath.Separator)), ".git")
}

// readGitFile returns the directory a .git file names (gitdir: …),
// relative to the file's directory.
func readGitFile(f string) (string, error) {
	b, err := readSmall(f)
	if err != nil {
		return "", err
	}
	t, ok := strings.CutPrefix(strings.TrimRight(string(b), "\r\n"), "gitdir: ")
	if !ok {
		return "", fmt.Errorf("no gitdir: line")
	}
	if !filepath.IsAbs(t) {
		t = filepath.Join(filepath.Dir(f), t)
	}
	return filepath.Clean(t), nil
}

// readSmall reads a regular file of at most 1 MiB: a FIFO or a device
// where a repository file is expected is an error, not a wait.
func readSmall(f string) ([]byte, error) {
	fi, err := os.Stat(f)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", f)
	}
	if fi.Size() > 1<<20 {
		return nil, fmt.Errorf("%s is larger than 1 MiB", f)
	}
	return os.ReadFile(f)
}

// configCodeRisk is the reason the git config file f keeps git from
// being allowed (a key naming code git runs, an include, a file that
// cannot be read), or "" (f absent, or holding no such key). Aliases
// are not counted: an alias runs only under its own name, which the
// alias lookup resolves.
func configCodeRisk(f string) string {
	b, err := readSmall(f)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		return fmt.Sprintf("git reads %s, which spillway cannot read (%v)", f, err)
	}
	for _, k := range configKeys(b) {
		if strings.HasPrefix(k.key, "alias.") || k.key == "core.fsmonitor" && isGitBool(k.value) {
			continue
		}
		if isCodeKey(k.key) {
			return fmt.Sprintf("git reads %s, which sets %s: git runs a program or code it names, or reads more configuration there", f, k.key)
		}
	}
	return ""
}

type configKey struct{ key, value string }

// configKeys reads git's config syntax loosely: [section], [section
// "sub"], [section.sub], a key on the header's line or its own, values
// continued with a backslash. A continued line is also read as a key:
// reading more keys than git does only checks more.
func configKeys(b []byte) []configKey {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	var out []configKey
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimLeft(sc.Text(), " \t")
		if strings.HasPrefix(line, "[") {
			end := headerEnd(line)
			if end < 0 {
				section = "?"
				continue
			}
			section = headerName(line[1:end])
			line = strings.TrimLeft(line[end+1:], " \t")
		}
		n := 0
		for n < len(line) && (isAlnum(line[n]) || line[n] == '-') {
			n++
		}
		if n == 0 {
			continue
		}
		v := strings.TrimLeft(line[n:], " \t")
		v = strings.TrimSpace(strings.TrimPrefix(v, "="))
		out = append(out, configKey{key: strings.ToLower(section + "." + line[:n]), value: strings.Trim(v, `"`)})
	}
	return out
}

// headerEnd is the index of the ] that ends a section header, quotes
// and escapes within the subsection skipped, or -1.
func headerEnd(line string) int {
	quoted := false
	for i := 1; i < len(line); i++ {
		switch {
		case line[i] == '\\' && quoted:
			i++
		case line[i] == '"':
			quoted = !quoted
		case line[i] == ']' && !quoted:
			return i
		}
	}
	return -1
}

// headerName turns a header's text into the dotted prefix of its keys.
func headerName(h string) string {
	name, sub, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok {
		return h
	}
	sub = strings.TrimSpace(sub)
	sub = strings.TrimSuffix(strings.TrimPrefix(sub, `"`), `"`)
	sub = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(sub)
	return name + "." + sub
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func isGitBool(v string) bool {
	switch strings.ToLower(v) {
	case "", "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}

// maxGitDirs bounds the directories a command's cds may have left it
// in; past it, where git runs is not known.
const maxGitDirs = 16

// noteCd records where a cd or pushd whose target is written out may
// leave the command: each directory it may have been in, joined with
// the target, for a cd may be in a subshell or a branch. A target
// known only when it runs, CDPATH, cd -, popd and pushd's stack moves
// leave it unknown: a git part that follows is then not allowed.
func (c *checker) noteCd(name string, args []word) {
	if c.cdUnknown {
		return
	}
	var target []word
	for i, a := range args {
		if a.Known && len(a.Text) > 1 && a.Text[0] == '-' && target == nil {
			if a.Text == "--" {
				target = args[i+1:]
				break
			}
			continue
		}
		target = args[i:]
		break
	}
	if c.env == nil || c.env.Dir == "" {
		return // with no directory known, no repository is looked for
	}
	if name == "popd" || len(target) > 1 {
		c.cdUnknown = true
		return
	}
	t := ""
	if len(target) == 0 {
		if name != "cd" {
			c.cdUnknown = true
			return
		}
		t = c.home()
	} else {
		w := target[0]
		t = w.Text
		if !w.Known || t == "-" || strings.HasPrefix(t, "~") || name == "pushd" && (strings.HasPrefix(t, "+") || strings.HasPrefix(t, "-")) {
			c.cdUnknown = true
			return
		}
	}
	if !filepath.IsAbs(t) && !strings.HasPrefix(t, "./") && !strings.HasPrefix(t, "../") && t != "." && t != ".." && c.cdpath() {
		c.cdUnknown = true
		return
	}
	if c.gitDirs == nil {
		c.gitDirs = []string{c.env.Dir}
	}
	for _, d := range c.gitDirs {
		n := t
		if !filepath.IsAbs(n) {
			n = filepath.Join(d, n)
		}
		if n = filepath.Clean(n); !slices.Contains(c.gitDirs, n) {
			c.gitDirs = append(c.gitDirs, n)
		}
	}
	if len(c.gitDirs) > maxGitDirs {
		c.cdUnknown = true
	}
}

// cdpath reports whether cd searches CDPATH.
func (c *checker) cdpath() bool {
	if c.env != nil && c.env.Env != nil {
		if v, ok := c.env.Env["CDPATH"]; ok {
			return v != ""
		}
	}
	return os.Getenv("CDPATH") != ""
}
