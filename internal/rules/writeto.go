package rules

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// writeRisk is the reason writing the file the word w names keeps the
// part from being allowed, or "". A target is checked against the
// code-loading list as written, after a home directory prefix is
// expanded, and joined with the directory the command starts in (the
// cwd parameter and a named session's carried cd count). A target named
// by a glob or a substitution is not fully known: bash picks the file
// when it runs, and it may be any file of the list (.gi?/config,
// "$(echo .git)/config").
func (c *checker) writeRisk(w word) string { return c.writeRiskOf(w, true) }

// writesRisk is the reason the files a known writer writes keep the
// part from being allowed, or "". Its destination is held to
// writeRisk; its other arguments (cp's sources among them) are checked
// as written, so that cp *.txt build/ stays known.
func (c *checker) writesRisk(name string, args []word) string {
	dest := destination(name, args)
	for _, t := range writeTargets(name, args) {
		if r := c.writeRiskOf(t, t == dest || dest == (word{}) && name != "cp" && name != "mv" && name != "install" && name != "ln" && name != "link" && name != "rsync"); r != "" {
			return r
		}
	}
	for _, t := range moreWriteTargets(name, args) {
		if r := c.writeRisk(t); r != "" {
			return r
		}
	}
	return c.dirTargetRisk(name, args)
}

// dirTargetRisk is the reason the files a copy, a move, a link or an
// archive puts into a directory keep the part from being allowed, or
// "". The check of the destination as named does not see them: cp x
// DIR/, cp -t DIR x and cp x y DIR write DIR/x (and DIR/y); a recursive
// copy (cp -r, rsync) or an extraction (tar -x -C DIR, unzip -d DIR)
// writes anything under DIR. Whether DIR is a directory when the command
// runs is not known when it is decided, so a plain copy's destination is
// also held as a directory.
func (c *checker) dirTargetRisk(name string, args []word) string {
	switch name {
	case "cp", "mv", "install", "ln", "link", "rsync":
		dest, sources, recursive, ok := copyTarget(name, args)
		switch {
		case !ok:
			return ""
		case recursive:
			return c.treeRisk(dest)
		}
		return c.copiedNamesRisk(dest, sources)
	case "tar":
		if dest, ok := tarExtractDir(args); ok {
			return c.treeRisk(dest)
		}
	case "unzip":
		if dest := unzipDir(args); dest != (word{}) {
			return c.treeRisk(dest)
		}
	}
	return ""
}

// copyTarget reads the words of cp, mv, install, ln, link or rsync: the
// directory they write into (-t's value, else the last plain word), the
// sources, and whether the copy is recursive. ok is false when they
// write into no directory (one plain word, or -T).
func copyTarget(name string, args []word) (dest word, sources []word, recursive, ok bool) {
	recursive = name == "rsync"
	noTarget := false
	var plain []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		switch {
		case !a.Known || !strings.HasPrefix(t, "-") || t == "-":
			plain = append(plain, a)
		case t == "-t" || t == "--target-directory":
			if i+1 < len(args) {
				i++
				dest = args[i]
			}
		case strings.HasPrefix(t, "--target-directory="):
			dest = word{Text: t[len("--target-directory="):], Known: true}
		case t == "-T" || t == "--no-target-directory":
			noTarget = true
		case t == "--recursive" || t == "--archive":
			recursive = true
		case copyOptionValued(name, t):
			i++
		case !strings.HasPrefix(t, "--"):
			recursive = recursive || name == "cp" && strings.ContainsAny(t[1:], "rRa")
		}
	}
	if dest == (word{}) {
		if len(plain) < 2 {
			return word{}, nil, false, false
		}
		dest, plain = plain[len(plain)-1], plain[:len(plain)-1]
	}
	return dest, plain, recursive, !noTarget
}

// copyOptionValued reports whether the option t of the copying program
// name takes the next word as its value.
func copyOptionValued(name, t string) bool {
	switch {
	case t == "-S" || t == "--suffix":
		return true
	case name == "install":
		return t == "-m" || t == "-o" || t == "-g"
	case name == "rsync":
		return t == "-e" || t == "-f"
	}
	return false
}

// copiedNamesRisk is the reason the files a plain copy of sources puts
// into the directory dest keep the part from being allowed, or "": each
// is dest/ and the source's base name, and a source whose name is known
// only when it runs may be any file under dest.
func (c *checker) copiedNamesRisk(dest word, sources []word) string {
	for _, s := range sources {
		base := path.Base(unquotedText(s.Text))
		if !s.Known && (strings.ContainsAny(base, "*?[$`") || strings.Contains(s.Text, "$(")) || base == "." || base == ".." || base == "/" {
			// Names known only when it runs: any file under the directory.
			return c.treeRisk(dest)
		}
		if r := c.writeRiskOf(word{Text: strings.TrimSuffix(dest.Text, "/") + "/" + base, Known: dest.Known}, true); r != "" {
			return r
		}
	}
	return ""
}

// tarExtractDir is the directory tar extracts into (-C, --directory);
// ok is false when it does not extract or names no directory.
func tarExtractDir(args []word) (dest word, ok bool) {
	extract := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		if !a.Known {
			continue
		}
		switch {
		case t == "-C" || t == "--directory":
			if i+1 < len(args) {
				i++
				dest = args[i]
			}
		case strings.HasPrefix(t, "--directory="):
			dest = word{Text: t[len("--directory="):], Known: true}
		case strings.HasPrefix(t, "-C"):
			dest = word{Text: t[2:], Known: true}
		case t == "--extract" || t == "--get":
			extract = true
		case i == 0 && !strings.HasPrefix(t, "-") || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--"):
			extract = extract || strings.Contains(t, "x")
		}
	}
	return dest, extract && dest != (word{})
}

// unzipDir is the directory unzip -d extracts into, or the zero word.
func unzipDir(args []word) word {
	var dest word
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Known && a.Text == "-d" && i+1 < len(args) {
			dest = args[i+1]
		} else if a.Known && strings.HasPrefix(a.Text, "-d") && len(a.Text) > 2 {
			dest = word{Text: a.Text[2:], Known: true}
		}
	}
	return dest
}

// treeRisk is the reason writing any file under the directory the word
// d names (a recursive copy's or an archive's destination) keeps the part
// from being allowed, or "": d is in or is a directory of the list (a
// repository's .git, ~/.config/git, a PATH directory), or holds one
// (/etc holds /etc/ld.so.preload; the home directory its rc files; a
// working tree its .git).
func (c *checker) treeRisk(d word) string {
	t := strings.TrimSuffix(d.Text, "/")
	if t == "" {
		t = "/"
	}
	if r := c.writeRiskOf(word{Text: t, Known: d.Known}, true); r != "" {
		return r
	}
	if r := c.writeRiskOf(word{Text: strings.TrimSuffix(t, "/") + "/x", Known: d.Known}, true); r != "" {
		return fmt.Sprintf("it writes files under %s: %s", d.Text, r)
	}
	abs, ok := c.treeDir(t)
	if !ok {
		return ""
	}
	if held := c.protectedUnder(abs); held != "" {
		return fmt.Sprintf("it writes files under %s, which holds %s, a file or directory of the code-loading list: a program allowed to run later would run code no rule saw", d.Text, held)
	}
	return ""
}

// treeDir is the clean absolute directory t names, its home prefix
// expanded and a relative one joined to where the command starts; ok is
// false when where it starts is not known.
func (c *checker) treeDir(t string) (string, bool) {
	abs := c.expandHome(unquotedText(t))
	if !path.IsAbs(abs) {
		if c.ownEnv && c.env == nil {
			c.env = processContext()
		}
		if c.env == nil || c.env.Dir == "" || c.cdSeen {
			return "", false
		}
		abs = filepath.Join(c.env.Dir, abs)
	}
	return path.Clean(abs), true
}

// protectedUnder is the first file or directory of the code-loading
// list at or under the directory abs (the home directory and its rc
// files, the system's, the PATH directories, the rule files, a working
// tree's .git), or "".
func (c *checker) protectedUnder(abs string) string {
	holds := func(p string) bool { return p != "" && path.IsAbs(p) && underAny(path.Clean(p), abs) }
	if h := c.home(); h != "" {
		if holds(h) {
			return h
		}
		for _, f := range homeProtected {
			if holds(h + "/" + f) {
				return h + "/" + f
			}
		}
	}
	for _, f := range systemProtected {
		if holds(f) {
			return f
		}
	}
	for _, f := range append(c.pathDirs(), c.ruleFiles()...) {
		if holds(f) {
			return f
		}
	}
	if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
		return filepath.Join(abs, ".git")
	}
	return ""
}

// expandHome is t with a leading ~/, $HOME/ or ${HOME}/ (or the word
// alone) made the home directory.
func (c *checker) expandHome(t string) string {
	h := c.home()
	if h == "" {
		return t
	}
	for _, pre := range []string{"~", "$HOME", "${HOME}"} {
		if t == pre {
			return h
		}
		if strings.HasPrefix(t, pre+"/") {
			return h + t[len(pre):]
		}
	}
	return t
}

// homeProtected are the files and directories of the list under the
// home directory a recursive copy into one of their parents reaches.
var homeProtected = []string{".config/git", ".config/spillway", ".config/fish", ".local/state/spillway", ".local/bin",
	".local/lib", ".claude", ".claude.json", ".codex", ".ssh", ".gnupg", ".cargo", ".gitconfig", ".bashrc", ".profile",
	"Library/Application Support/spillway", "Library/Application Support/ClaudeCode"}

// systemProtected are the system's files and directories of the list.
var systemProtected = []string{"/etc/ld.so.preload", "/etc/ld.so.conf", "/etc/profile", "/etc/bash.bashrc", "/etc/environment",
	"/etc/gitconfig", "/etc/cron.d", "/etc/sudoers", "/etc/systemd", "/etc/ssh", "/etc/passwd", "/etc/pam.d",
	"/var/spool/cron", "/usr/lib/systemd", "/lib/systemd", "/usr/lib/python3", "/usr/local/lib", ManagedDirDefault,
	"/Library/Managed Preferences", "/proc", "/sys", "/boot"}

// destination is the one file or directory cp, mv, install, ln, link and
// rsync write into: -t's value, else the last argument.
func destination(name string, args []word) word {
	switch name {
	case "cp", "mv", "install", "ln", "link", "rsync":
	default:
		return word{}
	}
	var last word
	for i, a := range args {
		if a.Known && (a.Text == "-t" || a.Text == "--target-directory") && i+1 < len(args) {
			return args[i+1]
		}
		if !a.Known || !strings.HasPrefix(a.Text, "-") {
			last = a
		}
	}
	return last
}

// moreWriteTargets are the files writers writeTargets does not know
// write: sort -o, uniq's output, xxd -r's output, split's and csplit's
// prefix, git's --output (git log, diff, show, format-patch).
func moreWriteTargets(name string, args []word) []word {
	var out []word
	var plain []word
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		next := func() {
			if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		}
		switch {
		case name == "git" && a.Known && strings.HasPrefix(t, "--output="):
			out = append(out, word{Text: t[len("--output="):], Known: true})
		case name == "git" && a.Known && (t == "--output" || t == "--output-directory" || t == "-o"):
			next()
		case name == "git" && a.Known && strings.HasPrefix(t, "--output-directory="):
			out = append(out, word{Text: t[len("--output-directory="):], Known: true})
		case name == "sort" && a.Known && (t == "-o" || t == "--output"):
			next()
		case name == "sort" && a.Known && strings.HasPrefix(t, "--output="):
			out = append(out, word{Text: t[len("--output="):], Known: true})
		case name == "sort" && a.Known && strings.HasPrefix(t, "-o") && len(t) > 2:
			out = append(out, word{Text: t[2:], Known: true})
		case name == "csplit" && a.Known && (t == "-f" || t == "--prefix"):
			next()
		case a.Known && strings.HasPrefix(t, "-") && t != "-":
		default:
			plain = append(plain, a)
		}
	}
	switch name {
	case "uniq", "xxd", "split":
		// uniq IN OUT, xxd [-r] IN OUT, split IN PREFIX.
		if len(plain) >= 2 {
			out = append(out, plain[len(plain)-1])
		}
	}
	return out
}

func (c *checker) writeRiskOf(w word, strict bool) string {
	t := w.Text
	if base := path.Base(path.Clean(unquotedText(t))); gitDirFile[base] || base == ".git" {
		// A git after it in this command may find the repository it
		// lays out, which is not on disk to be read now (gitRisk).
		c.gitLayoutWritten = true
	}
	if !w.Known && strict {
		if strings.Contains(t, "$(") || strings.Contains(t, "`") || strings.Contains(t, "<(") || strings.Contains(t, ">(") {
			return fmt.Sprintf("it writes to %s, a file named by a substitution known only when it runs, which may be a file a program runs code from", t)
		}
		if strings.ContainsAny(unquotedText(t), "*?[") {
			return fmt.Sprintf("it writes to %s, a file named by a glob bash resolves when it runs, which may be a file a program runs code from", t)
		}
		t = c.expandHome(unquotedText(t))
	}
	if r := c.codeLoadingFile(t); r != "" {
		return r
	}
	if !w.Known && !strict {
		return ""
	}
	if strings.Contains(t, "/spillway/") && path.Base(t) == "state.json" {
		return fmt.Sprintf("it writes %s, spillway's state file, which says which projects' rules are trusted", t)
	}
	if r := systemCodeFile(t); r != "" {
		return r
	}
	abs := t
	if !path.IsAbs(abs) {
		if c.env == nil || c.env.Dir == "" || c.cdSeen {
			return ""
		}
		abs = filepath.Join(c.env.Dir, t)
	}
	abs = path.Clean(abs)
	if r := linkedCodeFile(c, t, abs); r != "" {
		return r
	}
	if abs != path.Clean(t) {
		if r := c.codeLoadingFile(abs); r != "" && (strings.Contains(abs, "/.git/") || strings.HasSuffix(abs, "/.git") || c.inPathDir(abs)) {
			return r
		}
	}
	for _, f := range c.ruleFiles() {
		if abs == f {
			return fmt.Sprintf("it writes %s, the file spillway's rules are read from", t)
		}
	}
	if d := gitDirOf(path.Dir(abs)); d != "" {
		return fmt.Sprintf("it writes %s, inside %s, a directory git reads as a repository (HEAD and config): git runs the code its config names", t, d)
	}
	return ""
}

// unquotedText drops the quote characters of a word as written, so that
// "$HOME/.bashrc" is read as $HOME/.bashrc.
func unquotedText(t string) string { return quoteDropper.Replace(t) }

// quoteDropper is built once: a Replacer builds its tables on first use,
// about 200 KB, which per word made a 100 KB command's decision allocate
// twice what it had.
var quoteDropper = strings.NewReplacer(`"`, "", `'`, "")

// home is the home directory the command runs with.
func (c *checker) home() string {
	if c.env != nil && c.env.Env != nil {
		if h, ok := c.env.Env["HOME"]; ok {
			return strings.TrimSuffix(h, "/")
		}
	}
	if c.env != nil && c.env.Home != "" {
		return strings.TrimSuffix(c.env.Home, "/")
	}
	h, _ := os.UserHomeDir()
	return strings.TrimSuffix(h, "/")
}

// ruleFiles are the absolute files the rules in force were read from.
func (c *checker) ruleFiles() []string {
	if c.set == nil {
		return nil
	}
	var out []string
	for _, r := range c.set.Rules {
		s := r.Source
		if i := strings.LastIndexByte(s, ':'); i > 0 {
			s = s[:i]
		}
		if path.IsAbs(s) {
			out = append(out, path.Clean(s))
		}
	}
	return out
}

// gitDirOf returns the first of dir and its parents that git would
// take for a repository directory (a HEAD and a config file side by
// side, the shape of a bare repository or a .git directory), or "".
// git run there, or given it by --git-dir or -C, runs what its config
// names.
func gitDirOf(dir string) string {
	for d := dir; ; d = path.Dir(d) {
		if isGitDir(d) {
			return d
		}
		if d == "/" || d == "." || d == "" {
			return ""
		}
	}
}

func isGitDir(d string) bool {
	h, err := os.Stat(filepath.Join(d, "HEAD"))
	if err != nil || !h.Mode().IsRegular() {
		return false
	}
	cf, err := os.Stat(filepath.Join(d, "config"))
	return err == nil && cf.Mode().IsRegular()
}

// systemCodeFile is the reason writing a system file whose content the
// system runs (the dynamic loader's preload list, login scripts, cron
// tables, the sudoers, systemd units, modules) or a kernel control file
// is not allowed, or "".
func systemCodeFile(p string) string {
	p = path.Clean(p)
	for _, pre := range []string{
		"/etc/ld.so.preload", "/etc/ld.so.conf", "/etc/profile", "/etc/bash.bashrc", "/etc/bashrc", "/etc/environment",
		"/etc/zsh", "/etc/cron", "/etc/anacrontab", "/var/spool/cron", "/etc/sudoers", "/etc/systemd", "/lib/systemd",
		"/usr/lib/systemd", "/etc/init.d", "/etc/rc", "/etc/modprobe.d", "/etc/modules", "/etc/udev", "/etc/xdg/autostart",
		"/etc/apt/apt.conf.d", "/etc/pam.d", "/etc/security", "/etc/ssh", "/etc/passwd", "/etc/shadow", "/etc/group",
		"/etc/gitconfig", "/etc/inputrc", "/etc/python", "/usr/lib/python", "/usr/local/lib/python", "/etc/npmrc",
		"/proc/", "/sys/", "/dev/mem", "/dev/kmem", "/dev/port", "/boot",
	} {
		if strings.HasPrefix(p, pre) && !strings.HasPrefix(p, "/proc/self/fd/") {
			return fmt.Sprintf("it writes %s: the system runs code or takes control from it, so a program allowed to run later would run code no rule saw", p)
		}
	}
	return ""
}

// gitRisk is the reason a git part keeps from being allowed for where
// it reads its repository, or for a file it writes, or "": --output of
// git log, diff, show and format-patch writes any file; --git-dir names
// a directory whose config git runs, whatever its name; and the
// repository git finds from where it runs (the working directory, or
// where the cds before it went, then each -C) may name code git runs
// (see gitRepoRisk).
func (c *checker) gitRisk(words []word) string {
	for _, t := range moreWriteTargets("git", words[1:]) {
		if r := c.writeRisk(t); r != "" {
			return r
		}
	}
	if c.cdUnknown {
		return "git runs in a directory an earlier cd, pushd or popd chose, known only when it runs, and git runs the code its repository's config names"
	}
	if c.gitLayoutWritten {
		return "an earlier part of the command writes a file git reads as a repository's (HEAD, config, commondir, a .git file), which is not there to be read before it runs, and a repository's config names code git runs"
	}
	var dirs []string
	switch {
	case c.gitDirs != nil:
		dirs = slices.Clone(c.gitDirs)
	case c.env != nil && c.env.Dir != "":
		dirs = []string{c.env.Dir}
	}
	dirs, gitDir, r := gitRepoPlaces(words, dirs)
	if r != "" {
		return r
	}
	if len(gitDir) > 0 {
		return gitDirsRisk(gitDir, dirs)
	}
	for _, d := range dirs {
		if r := c.gitRepoRisk(d); r != "" {
			return r
		}
	}
	return ""
}

// gitRepoPlaces reads git's global options for where it finds its
// repository: each -C moves dirs, the directories git starts from, and
// each --git-dir names a repository directory. risk is set when one of
// them is known only when it runs, or a --git-dir names a repository
// not called .git.
func gitRepoPlaces(words []word, dirs []string) (_ []string, gitDir []string, risk string) {
	for i := 1; i < len(words); i++ {
		w := words[i]
		if !w.Known || !strings.HasPrefix(w.Text, "-") {
			break
		}
		name, val, hasVal := strings.Cut(w.Text, "=")
		if !hasVal && i+1 < len(words) && (name == "--git-dir" || name == "-C") {
			i++
			val = words[i].Text
			if !words[i].Known {
				return nil, nil, fmt.Sprintf("git %s names a directory known only when it runs, and git runs the code its config names", name)
			}
		} else if strings.HasPrefix(w.Text, "-C") && len(w.Text) > 2 {
			name, val = "-C", w.Text[2:]
		}
		switch name {
		case "--git-dir":
			if path.Base(path.Clean(val)) != ".git" {
				return nil, nil, fmt.Sprintf("git --git-dir %s reads a repository not named .git, whose config (written by any command) names programs git runs", val)
			}
			gitDir = append(gitDir, val)
		case "-C":
			dirs = gitC(dirs, val)
		}
	}
	return dirs, gitDir, ""
}

// gitC is the directories git starts from after -C val: each joined
// with val, or val alone when it is absolute; an empty val leaves them.
func gitC(dirs []string, val string) []string {
	if val == "" {
		return dirs
	}
	if path.IsAbs(val) {
		return []string{val}
	}
	for j, d := range dirs {
		dirs[j] = filepath.Join(d, val)
	}
	return dirs
}

// gitDirsRisk is the reason one of the repository directories
// --git-dir names (a relative one taken from the first of dirs) keeps
// the part from being allowed, or "".
func gitDirsRisk(gitDir, dirs []string) string {
	for _, g := range gitDir {
		if !filepath.IsAbs(g) && len(dirs) > 0 {
			g = filepath.Join(dirs[0], g)
		}
		if filepath.IsAbs(g) {
			if r, _ := gitDirRisk(g); r != "" {
				return r
			}
		}
	}
	return ""
}

// inputCode is the reason a program that runs what its input says is
// not fully known, or "": make reading its makefile from stdin, a
// descriptor or a process substitution (make -f -, -f /dev/stdin,
// -f <(…)) runs recipes no rule saw — the here-string or pipe that
// feeds it is code, as it is for a shell.
func inputCode(name string, args []word) string {
	if name != "make" && name != "gmake" && name != "bmake" {
		return ""
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		var v word
		switch {
		case a.Known && (t == "-f" || t == "--file" || t == "--makefile"):
			if i+1 >= len(args) {
				return ""
			}
			i++
			v = args[i]
		case a.Known && strings.HasPrefix(t, "-f") && len(t) > 2:
			v = word{Text: t[2:], Known: true}
		case a.Known && (strings.HasPrefix(t, "--file=") || strings.HasPrefix(t, "--makefile=")):
			v = word{Text: t[strings.IndexByte(t, '=')+1:], Known: true}
		default:
			continue
		}
		if !v.Known || v.Text == "-" || strings.HasPrefix(v.Text, "/dev/") || strings.HasPrefix(v.Text, "/proc/") {
			return fmt.Sprintf("%s -f %s reads its makefile from its input or a descriptor: the recipes in it run, and spillway does not read them", name, v.Text)
		}
	}
	return ""
}

// linkedCodeFile is the reason writing abs is not allowed when abs is
// another name of a file of the list: a symbolic link to one (cfg ->
// .git/config, a directory link g -> .git), which a repository can ship,
// or a hard link, whose other names the rules cannot know.
func linkedCodeFile(c *checker, t, abs string) string {
	fi, err := os.Lstat(abs)
	if err == nil && fi.Mode().IsRegular() {
		if n := linkCount(fi); n > 1 {
			return fmt.Sprintf("it writes %s, a file with %d names (hard links): the others may be files a program runs code from, which the rules cannot see", t, n)
		}
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		// A file not made yet: where its directory really is.
		dir, derr := filepath.EvalSymlinks(filepath.Dir(abs))
		if derr != nil {
			return ""
		}
		real = filepath.Join(dir, filepath.Base(abs))
	}
	if real == abs {
		return ""
	}
	if r := c.codeLoadingFile(real); r != "" {
		return fmt.Sprintf("it writes %s, which is %s through a symbolic link: %s", t, real, r)
	}
	if d := gitDirOf(filepath.Dir(real)); d != "" {
		return fmt.Sprintf("it writes %s, which is %s through a symbolic link, inside %s, a directory git reads as a repository", t, real, d)
	}
	return ""
}
