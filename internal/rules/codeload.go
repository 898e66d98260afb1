package rules

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Programs an allowed command may start run what their configuration
// says: git runs core.fsmonitor on git status, an alias on git p, hooks
// on git commit; a shell reads its rc files; python runs .pth files.
// So a part that writes one of those files, or sets such configuration
// on git's command line, is ask whatever the rules: the allowed program
// run after it would run code no rule saw.

// codeKeys are git configuration keys whose value is a program or code
// git runs, or a place it reads more configuration or hooks from; a
// key is matched lowercased, * standing for one dotted section.
var codeKeys = []string{
	"alias.*", "core.fsmonitor", "core.sshcommand", "core.pager", "core.editor", "core.hookspath",
	"core.askpass", "core.gitproxy", "core.alternaterefscommand", "core.worktree", "diff.external",
	"diff.*.textconv", "diff.*.command", "filter.*.clean", "filter.*.smudge", "filter.*.process",
	"credential.helper", "credential.*.helper", "include.path", "includeif.*.path", "sequence.editor",
	"pager.*", "gpg.program", "gpg.*.program", "merge.*.driver", "mergetool.*.cmd", "difftool.*.cmd",
	"mergetool.*.path", "difftool.*.path", "uploadpack.packobjectshook", "remote.*.uploadpack",
	"remote.*.receivepack", "remote.*.vcs", "protocol.*.allow", "protocol.allow", "url.*.insteadof",
	"url.*.pushinsteadof", "init.templatedir", "web.browser", "browser.*.cmd", "browser.*.path",
	"man.*.cmd", "man.*.path", "submodule.*.update", "interactive.difffilter", "sendemail.*",
	"core.attributesfile", "core.excludesfile", "ssh.variant", "http.*.cookiefile", "safe.directory",
}

// isCodeKey reports whether a git configuration key names code git runs.
func isCodeKey(key string) bool {
	key = strings.ToLower(key)
	parts := strings.Split(key, ".")
	for _, k := range codeKeys {
		kp := strings.Split(k, ".")
		if matchKey(kp, parts) {
			return true
		}
	}
	// Any key of a section whose subsections name programs.
	return strings.HasPrefix(key, "filter.") || strings.HasPrefix(key, "alias.")
}

// matchKey matches a key's dotted parts against a pattern's: * is one
// part; the subsection of a three-part key may itself hold dots, so
// the first and last parts are matched and * takes the middle.
func matchKey(pat, key []string) bool {
	if len(pat) == 3 && pat[1] == "*" {
		return len(key) >= 3 && (pat[0] == "*" || key[0] == pat[0]) && key[len(key)-1] == pat[2]
	}
	if len(pat) != len(key) {
		return false
	}
	for i := range pat {
		if pat[i] != "*" && pat[i] != key[i] {
			return false
		}
	}
	return true
}

// gitConfigRisk is the reason git's -c KEY=VALUE or --config-env
// KEY=ENV is not allowed, or "" when the key runs no code.
func gitConfigRisk(v word, opt string) string {
	if !v.Known {
		return fmt.Sprintf("git %s sets configuration known only when it runs, which can make git run any program", opt)
	}
	key, _, _ := strings.Cut(v.Text, "=")
	if isCodeKey(key) {
		return fmt.Sprintf("git %s %s sets configuration that makes git run a program or code of the value", opt, key)
	}
	return ""
}

// gitConfigSets is the reason a git config command that sets a key
// whose value git runs is not allowed, or "". args follow "config".
func gitConfigSets(args []word) string {
	var plain []word
	setting := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			if strings.HasPrefix(a.Text, "-") || a.Split {
				return "an option of git config is known only when it runs"
			}
			plain = append(plain, a)
			continue
		}
		t := a.Text
		switch {
		case t == "set" && len(plain) == 0:
			setting = true
		case t == "--add" || t == "--replace-all" || strings.HasPrefix(t, "--type") || t == "--append":
			setting = true
		case t == "-f" || t == "--file" || t == "--blob" || t == "--default" || t == "--comment" || t == "--value":
			i++
		case strings.HasPrefix(t, "-"):
		default:
			plain = append(plain, a)
		}
	}
	if len(plain) >= 2 || setting && len(plain) >= 1 {
		k := plain[0]
		if !k.Known {
			return "git config sets a key known only when it runs"
		}
		if isCodeKey(k.Text) {
			return fmt.Sprintf("git config sets %s, which makes git run a program or code of the value", k.Text)
		}
	}
	return ""
}

// codeLoadingFile is the reason writing the file p is not allowed, or
// "": a file a program runs code from or reads its configuration from
// (git's config and hooks, shell rc files, python's .pth and
// sitecustomize, a PATH directory, spillway's, Claude Code's and
// Codex's rule files). p is as written; ~ is the home directory.
func (c *checker) codeLoadingFile(p string) string {
	if p == "" || p == "/dev/null" {
		return ""
	}
	// A device or a descriptor is no file of the list, unless ".." walks
	// out of it: /dev/fd/../cwd/.git/config is the repository's config.
	if (strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/self/fd/")) && !slices.Contains(strings.Split(p, "/"), "..") {
		return ""
	}
	// Most targets (out.log, build/x.o) name none of the list: a scan
	// for the markers spares them cleaning and splitting the path.
	if !mayLoadCode(p) && !c.inPathDir(p) {
		return ""
	}
	clean := path.Clean(p)
	why := codeFileWhy(clean)
	if why == "" && c.inPathDir(clean) {
		why = "it is in a PATH directory, where a program name finds it"
	}
	if why == "" {
		return ""
	}
	return fmt.Sprintf("it writes %s: %s, so a program allowed to run later would run code no rule saw", p, why)
}

// codeFileWhy is why the file clean (a cleaned path) is on the
// code-loading list by its name, or "".
func codeFileWhy(clean string) string {
	base := path.Base(clean)
	comps := strings.Split(clean, "/")
	has := func(name string) bool {
		return slices.Contains(comps, name)
	}
	// under reports whether the components a then b follow each other.
	under := func(a, b string) bool {
		for i := 0; i+1 < len(comps); i++ {
			if comps[i] == a && comps[i+1] == b {
				return true
			}
		}
		return false
	}
	switch {
	case has(".git") || base == ".git":
		return "git runs code its repository files name (config, hooks, commondir, a .git file's gitdir)"
	case base == ".gitconfig" || strings.HasSuffix(clean, "/git/config") || under(".config", "git") || clean == "/etc/gitconfig" || base == ".gitmodules" || base == ".lfsconfig":
		return "git runs code its configuration names"
	case rcFiles[base]:
		return "a shell or program runs it when it starts"
	case strings.HasSuffix(base, ".pth") || base == "sitecustomize.py" || base == "usercustomize.py" || base == "conftest.py":
		return "python runs it when it starts or when pytest collects tests"
	case has(".claude") || has(".codex") || base == ".claude.json" || base == "spillway.toml" || has("spillway") && strings.HasSuffix(base, ".toml") ||
		under(".config", "spillway") || under("state", "spillway") || under("Application Support", "spillway") || base == "managed-settings.json" ||
		under(".config", "claude-code") || clean == ManagedDirDefault || strings.HasPrefix(clean, ManagedDirDefault+"/") ||
		strings.HasPrefix(clean, "/Library/Managed Preferences/") && strings.HasSuffix(base, ".plist"):
		return "it holds rules spillway, Claude Code or Codex read"
	case has(".ssh") || has(".gnupg") || has(".cargo") && (base == "config.toml" || base == "config") || base == ".npmrc" || base == ".pypirc" || base == ".yarnrc" || base == ".yarnrc.yml" || base == ".envrc":
		return "a program reads commands to run from it"
	case has("bin") && (has(".local") || has("node_modules") || has(".venv") || has("venv")) || has(".bin"):
		return "it is in a directory programs are run from by name"
	}
	return ""
}

// ProtectedFile is the reason a change to the file p (written, moved
// onto or off, deleted) would make a program started later run code no
// rule saw, or "": the code-loading list (git's repository files and
// configuration, shell and editor start-up files, python's start-up
// files, the rules of spillway and the agents, managed settings, the
// system's start-up files) and the PATH directories pathDirs. p is
// absolute or relative to the working directory. The bash check and the
// file tools decide by it.
func ProtectedFile(p string, pathDirs []string) string {
	clean := path.Clean(p)
	if why := codeFileWhy(clean); why != "" {
		return why
	}
	if systemCodeFile(clean) != "" {
		return "the system runs code or takes control from it"
	}
	if strings.Contains(clean, "/spillway/") && path.Base(clean) == "state.json" {
		return "spillway's state file, which says which projects' rules are trusted"
	}
	dir := path.Dir(clean)
	if path.IsAbs(clean) && gitDirFile[path.Base(clean)] && looksLikeGitDirWith(filepath.FromSlash(dir), path.Base(clean)) {
		return "with it the directory is laid out as a git repository, which git finds from below and whose config can run code"
	}
	for _, d := range pathDirs {
		if d != "" && path.IsAbs(d) && path.Clean(d) == dir {
			return "it is in a PATH directory, where a program name finds it"
		}
	}
	return ""
}

// rcFiles are start-up and configuration files that run commands.
var rcFiles = map[string]bool{
	".bashrc": true, ".bash_profile": true, ".bash_login": true, ".bash_logout": true, ".profile": true,
	".zshrc": true, ".zshenv": true, ".zprofile": true, ".zlogin": true, ".zlogout": true, ".kshrc": true,
	".mkshrc": true, ".inputrc": true, ".vimrc": true, ".exrc": true, ".nvimrc": true, ".nvim.lua": true,
	".gvimrc": true, ".gdbinit": true, ".lesskey": true, ".wgetrc": true, ".curlrc": true, ".pythonrc": true,
	".pythonstartup": true, ".irbrc": true, ".pryrc": true, ".psqlrc": true, ".sqliterc": true, ".my.cnf": true,
	".tmux.conf": true, ".screenrc": true, ".xinitrc": true, ".xsession": true, ".xprofile": true,
	"config.fish": true, "bashrc": true, "profile": true, ".pypirc": true,
}

// writeTargets returns the words a known writer writes to: every
// argument that is not an option (cp, mv, tee, …), dd's of=, and the
// files sed -i edits.
func writeTargets(name string, args []word) []word {
	switch name {
	case "cp", "mv", "install", "ln", "link", "tee", "rsync", "truncate", "touch", "patch", "unzip", "tar", "sed", "gsed", "perl", "chmod", "mkdir":
	case "dd":
		var out []word
		for _, a := range args {
			if a.Known && strings.HasPrefix(a.Text, "of=") {
				out = append(out, word{Text: a.Text[3:], Known: true})
			}
		}
		return out
	default:
		return nil
	}
	if (name == "sed" || name == "gsed" || name == "perl") && !hasInPlace(args) {
		return nil
	}
	var out []word
	for _, a := range args {
		// An expansion is looked at as written: ~/.bashrc and
		// "$HOME/.bashrc" still end in .bashrc.
		t := a.Text
		if strings.HasPrefix(t, "--target-directory=") || strings.HasPrefix(t, "--output=") {
			out = append(out, word{Text: t[strings.IndexByte(t, '=')+1:], Known: true})
			continue
		}
		if strings.HasPrefix(t, "-") {
			continue
		}
		out = append(out, a)
	}
	return out
}

func hasInPlace(args []word) bool {
	for _, a := range args {
		if a.Known && (a.Text == "-i" || strings.HasPrefix(a.Text, "-i") || strings.HasPrefix(a.Text, "--in-place") || len(a.Text) > 1 && a.Text[0] == '-' && a.Text[1] != '-' && strings.Contains(a.Text, "i")) {
			return true
		}
	}
	return false
}

// pathDirs are the directories of the PATH commands run with.
func (c *checker) pathDirs() []string {
	if c.env == nil && c.ownEnv {
		// The process's PATH; its working directory is found when a
		// program path needs it.
		if c.dirs == nil {
			c.dirs = strings.Split(os.Getenv("PATH"), ":")
			for _, d := range c.dirs {
				c.relPATH = c.relPATH || !strings.HasPrefix(d, "/")
			}
		}
		return c.dirs
	}
	if c.env == nil || c.env.PATH == "" {
		return nil
	}
	if c.dirs == nil {
		c.dirs = strings.Split(c.env.PATH, ":")
		for _, d := range c.dirs {
			c.relPATH = c.relPATH || !strings.HasPrefix(d, "/")
		}
	}
	return c.dirs
}

// codeMarkers are strings one of which every path codeLoadingFile flags
// holds.
var codeMarkers = []string{".git", ".claude", ".codex", "spillway", "managed-settings", ".ssh", ".gnupg", ".cargo",
	".npmrc", ".yarnrc", ".envrc", "bin", "git/config", "gitconfig", ".pth", "customize", "conftest", "rc", "profile",
	".exrc", ".config/git", "claude-code", "Managed Preferences", ".lesskey", ".gdbinit", ".my.cnf", ".tmux.conf", ".xsession", ".xprofile", "config.fish", ".zshenv", ".zlog", ".nvim.lua"}

func mayLoadCode(p string) bool {
	for _, m := range codeMarkers {
		if strings.Contains(p, m) {
			return true
		}
	}
	return false
}

// inPathDir reports whether the file p is in one of the PATH
// directories. A bare name is in the working directory, which only a
// relative PATH entry names.
func (c *checker) inPathDir(p string) bool {
	dirs := c.pathDirs()
	if len(dirs) == 0 {
		return false
	}
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		if !c.relPATH {
			return false
		}
		p = "./" + p
		i = 1
	}
	dir := path.Clean(p[:max(i, 1)])
	for _, d := range dirs {
		if d == "" {
			d = "."
		}
		if dir == path.Clean(d) {
			return true
		}
	}
	return false
}

// gitDirFile are the files that, beside a HEAD (or a HEAD beside them),
// make a directory one git takes for a repository.
var gitDirFile = map[string]bool{"HEAD": true, "config": true, "commondir": true, "config.worktree": true}

// looksLikeGitDirWith reports whether dir looks like a repository
// directory once it holds the file name as well (looksLikeGitDir).
func looksLikeGitDirWith(dir, name string) bool {
	if name == "HEAD" {
		return besideHEAD(dir)
	}
	_, err := os.Lstat(filepath.Join(dir, "HEAD"))
	return err == nil
}
