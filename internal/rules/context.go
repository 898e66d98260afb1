package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A Context is what is known, before a command runs, of where it runs:
// the checker resolves a program written as a path, the files a part
// writes and git's aliases against it.
type Context struct {
	// Dir is the working directory the command starts in.
	Dir string
	// PATH is the PATH the command runs with.
	PATH string
	// GitAliases returns git's aliases as git itself reads them in dir
	// (git config --get-regexp '^alias\.'), name to value; nil leaves
	// aliases unresolved, and a git subcommand git does not know is
	// decided by its name as written. A map holding AliasesUnread says
	// the aliases could not all be read: such a subcommand is then ask.
	GitAliases func(dir string) map[string]string
	// Env holds the variables the call adds to the environment (the
	// bash tool's env parameter): each is checked as a VAR= prefix is.
	Env map[string]string
	// CwdParam is the working directory the call asked for (the bash
	// tool's cwd parameter), decided as a cd is by the rules that name
	// cd (a part of its own only when one does); "" when the call gave
	// none.
	CwdParam string
	// Writable reports whether the session can write a directory (under
	// a sandbox, its writable set): a program PATH lookup finds in one
	// is not allowed by a rule naming it by its bare name. nil: the
	// user can write it (access as the user; see userCanWrite for root).
	Writable func(dir string) bool
	// Home is the home directory ~ and $HOME name when Env sets no HOME;
	// "" is the process's.
	Home string
}

// AliasesUnread, a name no git alias can have, marks a map of aliases
// that misses some: the configuration includes files that were not
// read (an include may name a FIFO or a device a reader would wait on).
const AliasesUnread = ""

// CheckIn decides command as Check does, in the context cx.
func (s *Set) CheckIn(command string, cx Context) Verdict {
	if err := Limit(command); err != nil {
		return Verdict{Decision: Deny, parts: []part{{command: clip(command), reason: err.Error(), decision: Deny}}}
	}
	return s.exact(command, s.checkIn(command, len(command) < streamMin || mayDefine(command), &cx))
}

// callInputs decides the inputs of the call that are not its command:
// each variable of the env parameter, as a VAR= prefix, and the cwd
// parameter, as a cd by the rules that name cd.
func (c *checker) callInputs() {
	names := make([]string, 0, len(c.env.Env))
	for k := range c.env.Env {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		v := c.env.Env[k]
		if r := assignRisk(k, v, true); r != "" {
			c.ask(clip("env "+k+"="+v), "the env parameter: "+r)
		}
	}
	if c.env.CwdParam != "" {
		ws := []word{{Text: "cd", Known: true, Base: "cd", BaseKnown: true}, {Text: c.env.CwdParam, Known: true}}
		// A part only when a rule names it: a literal directory is
		// otherwise fully known, and the part would say nothing.
		for i := range c.set.Rules {
			if c.set.Rules[i].Pattern.matchWords(ws, c.set.Rules[i].Decision) != noMatch {
				st := &partState{words: ws, noProgram: "the cwd parameter: the command starts in " + c.env.CwdParam}
				c.final(st, ws, nil)
				break
			}
		}
	}
}

// processContext is the context of a Check with none given: the
// process's own working directory and PATH.
func processContext() *Context {
	dir, _ := os.Getwd()
	return &Context{Dir: dir, PATH: os.Getenv("PATH")}
}

// pathMatch is the reason a program written as a path may not be
// allowed by a rule that names it by its base name, or "": it must be
// the file PATH lookup finds for that name, with the PATH and working
// directory the part runs with.
func (c *checker) pathMatch(prog word) string {
	if !prog.Known {
		return fmt.Sprintf("the program %s is a path known only when it runs", prog.Text)
	}
	if c.env == nil {
		return fmt.Sprintf("the program %s is a path, and where it runs is not known", prog.Text)
	}
	p := prog.Text
	if !filepath.IsAbs(p) {
		if c.cdSeen {
			return fmt.Sprintf("the program %s is a relative path, and an earlier cd in the command changes what it names", p)
		}
		p = filepath.Join(c.env.Dir, p)
	}
	found := lookPath(prog.Base, c.pathDirs(), c.env.Dir)
	if found == "" {
		return fmt.Sprintf("the program %s is not the %s PATH lookup finds (none is found): a rule naming %s allows that one only", prog.Text, prog.Base, prog.Base)
	}
	if sameFile(p, found) {
		return ""
	}
	return fmt.Sprintf("the program %s is not the %s PATH lookup finds (%s): a rule naming %s allows that one only", prog.Text, prog.Base, found, prog.Base)
}

// lookPath finds name in the PATH directories dirs as the shell does:
// the first executable regular file; an empty or relative entry is
// relative to dir.
func lookPath(name string, dirs []string, dir string) string {
	for _, d := range dirs {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		f := filepath.Join(d, name)
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return f
		}
	}
	return ""
}

// sameFile reports whether a and b are the same file, symbolic links
// resolved.
func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// gitBuiltins are git's own commands: an alias of one of these names is
// ignored by git, so they need no lookup.
var gitBuiltins = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`add am annotate apply archive backfill bisect blame branch bugreport bundle
		cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry
		cherry-pick citool clean clone column commit commit-graph commit-tree config count-objects credential
		describe diagnose diff diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack
		filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck gc get-tar-commit-id grep gui
		hash-object help hook index-pack init instaweb interpret-trailers log ls-files ls-remote ls-tree
		mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-tree mergetool mktag
		mktree multi-pack-index mv name-rev notes pack-objects pack-refs patch-id prune prune-packed pull push
		range-diff read-tree rebase reflog refs remote repack replace replay request-pull rerere reset restore
		rev-list rev-parse revert rm send-email send-pack shortlog show show-branch show-index show-ref
		sparse-checkout stage stash status stripspace submodule switch symbolic-ref tag unpack-file
		unpack-objects update-index update-ref update-server-info var verify-commit verify-pack verify-tag
		version whatchanged worktree write-tree`) {
		m[n] = true
	}
	return m
}()

// gitAlias resolves an alias in the git part ws (git and its global
// options skipped): the alias's words stand for its name, as git reads
// them. It returns the words and a reason the part may not be allowed.
func (c *checker) gitAlias(ws []word) ([]word, string) {
	for range 8 {
		if len(ws) < 2 || !ws[1].Known || gitBuiltins[ws[1].Text] || strings.HasPrefix(ws[1].Text, "-") ||
			c.env == nil || c.env.GitAliases == nil {
			return ws, ""
		}
		if c.cdSeen {
			return ws, "git may read an alias of this name in a directory an earlier cd chose, known only when it runs"
		}
		if c.aliases == nil {
			c.aliases = c.env.GitAliases(c.env.Dir)
			if c.aliases == nil {
				c.aliases = map[string]string{}
			}
		}
		v, ok := c.aliases[strings.ToLower(ws[1].Text)]
		if !ok {
			if inc, unread := c.aliases[AliasesUnread]; unread {
				return ws, fmt.Sprintf("git %s may be an alias: git's configuration includes other files (%s), which spillway does not read", ws[1].Text, inc)
			}
			return ws, ""
		}
		if strings.HasPrefix(v, "!") {
			return ws, fmt.Sprintf("git %s is an alias that runs a shell command (%s)", ws[1].Text, clip(v))
		}
		words, err := shlexSplit(v)
		if err != nil || len(words) == 0 {
			return ws, fmt.Sprintf("git %s is an alias spillway cannot read (%s)", ws[1].Text, clip(v))
		}
		out := append(make([]word, 0, len(ws)+len(words)), ws[0])
		for _, w := range words {
			out = append(out, word{Text: w, Known: true, Base: w, BaseKnown: true})
		}
		ws = append(out, ws[2:]...)
	}
	return ws, "git aliases nest too deep"
}
