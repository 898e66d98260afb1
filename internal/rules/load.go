package rules

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Imports are the names of the tools whose rules can be read: the words
// of the config's import list.
var Imports = []string{"claude-code", "codex"}

// Places says where an import looks for the person's rules. Every
// directory is given, never taken from the process, so that a caller
// (and a test) chooses what is read.
type Places struct {
	// Home is the person's home directory: ~/.claude/settings.json and
	// ~/.codex/rules/ are under it, and sources under it are shown as
	// "~/…".
	Home string
	// Cwd is the working directory, the project: its
	// .claude/settings.json, .claude/settings.local.json and
	// .codex/rules/ are read too, their allow entries only when the
	// person trusts it (Trust).
	Cwd string
	// ClaudeConfigDir, when set, replaces ~/.claude for the user's
	// settings (Claude Code's CLAUDE_CONFIG_DIR).
	ClaudeConfigDir string
	// CodexHome, when set, replaces ~/.codex (Codex's CODEX_HOME).
	CodexHome string
	// ManagedDir is where an administrator puts Claude Code's managed
	// settings (ManagedDirDefault on this system): managed-settings.json
	// and managed-settings.d/*.json under it are read whatever the
	// import list says. "" reads none.
	ManagedDir string
	// ManagedPlists are macOS managed-preferences files
	// (com.anthropic.claudecode.plist), read through plutil; read like
	// ManagedDir's files.
	ManagedPlists []string
	// Extra are more settings files of the person's own, read after the
	// user's settings ([rules] settings in the config).
	Extra []string
	// Trust says which projects' allow entries count.
	Trust Trust
}

// PlacesFromEnv returns the places of the person running the process:
// their home, the cwd given, the two tools' own variables and the
// system's managed settings.
func PlacesFromEnv(cwd string) Places {
	home, _ := os.UserHomeDir()
	return Places{Home: home, Cwd: cwd, ClaudeConfigDir: os.Getenv("CLAUDE_CONFIG_DIR"), CodexHome: os.Getenv("CODEX_HOME"),
		ManagedDir: ManagedDirDefault, ManagedPlists: managedPlists(), Trust: Trust{StateFile: DefaultStateFile(home)}}
}

// A FileError is a rules file that cannot be used: where, and what is
// wrong with it.
type FileError struct {
	File string
	Line int // 1-based; 0 if the file as a whole
	Col  int // 1-based; 0 if unknown
	Msg  string
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// CheckImports reports an import name that is not one of Imports.
func CheckImports(names []string) error {
	for _, name := range names {
		if !slices.Contains(Imports, name) {
			return fmt.Errorf("unknown import %q; want %s", name, strings.Join(Imports, " or "))
		}
	}
	return nil
}

// scope is who wrote a rules file, which decides whether its allow
// entries count.
type scope int

const (
	scopeManaged scope = iota // an administrator's: always, and first
	scopeUser                 // the person's own
	scopeProject              // the project's: allow entries only if trusted
)

// importer gathers what the files of one import hold.
type importer struct {
	at      Places
	out     *Imported
	budget  int64
	project *projectTrust
}

// Import reads the rules of the administrator's managed settings
// (always), the person's extra settings files, and the tools named (see
// Imports; names are checked by CheckImports first), in that order, each
// tool's user files before the project's. It never fails: a missing file
// is no rule; a file that cannot be read or evaluated is an import
// failure (Imported.Failures), which makes every command ask, and every
// file-tool call too for a Claude Code settings file; an entry that
// cannot be held as written is read the stricter way with a Note. A
// project's allow entries count only when at.Trust trusts the project.
func Import(names []string, at Places) *Imported {
	im := &importer{at: at, out: &Imported{}, budget: MaxRuleBytes}
	for _, f := range managedFiles(at.ManagedDir) {
		im.claude(f, scopeManaged)
	}
	for _, f := range at.ManagedPlists {
		im.plist(f)
	}
	for _, f := range at.Extra {
		im.claude(f, scopeUser)
	}
	for _, name := range names {
		switch name {
		case "claude-code":
			user, project := claudeFiles(at)
			for _, f := range user {
				im.claude(f, scopeUser)
			}
			for _, f := range project {
				im.claude(f, scopeProject)
			}
		case "codex":
			im.codex()
		}
	}
	if im.out.ManagedOnly {
		im.managedOnly()
	}
	im.guardRuleFiles()
	return im.out
}

// guardRuleFiles makes the file tools ask before they change a rules
// file: the project's (whose change would add allow entries) and the
// person's own, and spillway's state file, where trust is kept.
func (im *importer) guardRuleFiles() {
	var paths []string
	if im.at.Cwd != "" {
		paths = append(paths, projectClaudeFiles(im.at.Cwd)...)
		paths = append(paths, filepath.Join(projectCodexDir(im.at.Cwd), "**"))
	}
	if im.at.Home != "" {
		paths = append(paths, filepath.Join(im.at.Home, ".claude", "settings.json"), filepath.Join(im.at.Home, ".claude", "settings.local.json"),
			filepath.Join(im.at.Home, ".codex", "rules", "**"))
	}
	if d := im.at.ClaudeConfigDir; d != "" {
		paths = append(paths, filepath.Join(d, "settings.json"))
	}
	if d := im.at.CodexHome; d != "" {
		paths = append(paths, filepath.Join(d, "rules", "**"))
	}
	paths = append(paths, im.at.Extra...)
	paths = append(paths, im.at.Trust.ProjectFiles...)
	if f := im.at.Trust.StateFile; f != "" {
		paths = append(paths, f)
	}
	for _, p := range paths {
		for _, k := range []FileKind{FileEdit, FileWrite} {
			im.out.FileRules = append(im.out.FileRules, FileRule{Kind: k, Pattern: "/" + filepath.ToSlash(p), Decision: Ask,
				Source: "spillway", Text: "a rules file: changing it changes the rules"})
		}
	}
}

// read reads a rules file within the import's budget; errAbsent when it
// is not there.
func (im *importer) read(f string) ([]byte, error) {
	limit := min(int64(MaxRuleFileBytes), im.budget)
	data, err := readRuleFile(f, limit)
	if err != nil && err != errAbsent && limit < MaxRuleFileBytes {
		return nil, fmt.Errorf("%w (the rules files of one import may hold %d bytes together)", err, MaxRuleBytes)
	}
	im.budget -= int64(len(data))
	return data, err
}

// fail records an import failure of file: every command asks, and every
// file-tool call too when the file could hold file entries.
func (im *importer) fail(fe *FileError, fileEntries bool) {
	im.out.Failures = append(im.out.Failures, fe)
	why := "import failure: " + fe.Error() + ": every command asks until the file is fixed"
	im.out.Rules = append(im.out.Rules, Rule{Text: "import failure", Pattern: Pattern{Prefix: true}, Decision: Ask, Source: fe.File, Justification: why})
	if fileEntries {
		for _, k := range []FileKind{FileRead, FileEdit, FileWrite} {
			im.out.FileRules = append(im.out.FileRules, FileRule{Kind: k, Decision: Ask, Source: fe.File, Text: "import failure", Failure: fe.Error()})
		}
	}
}

// claude reads one Claude Code settings file of scope sc.
func (im *importer) claude(f string, sc scope) {
	shown := displayPath(f, im.at.Home)
	data, err := im.read(f)
	if err == errAbsent {
		return
	}
	if err != nil {
		im.fail(&FileError{File: shown, Msg: err.Error()}, true)
		return
	}
	im.out.Read = append(im.out.Read, f)
	p, err := ParseClaude(shown, data)
	if err != nil {
		var fe *FileError
		if !errors.As(err, &fe) {
			fe = &FileError{File: shown, Msg: err.Error()}
		}
		im.fail(fe, true)
		return
	}
	if sc == scopeManaged {
		im.out.Managed = append(im.out.Managed, f)
	}
	base := im.at.Home
	if sc == scopeProject {
		base = im.at.Cwd
	}
	for i := range p.FileRules {
		p.FileRules[i].Base = base
	}
	im.add(p, sc)
}

// add adds a file's rules of scope sc: a project's allow entries only
// when the project is trusted, else as Suspended notes.
func (im *importer) add(p Parsed, sc scope) {
	switch sc {
	case scopeManaged:
		im.out.ManagedOnly = im.out.ManagedOnly || p.ManagedOnly
		for i := range p.Rules {
			p.Rules[i].Source = "managed " + p.Rules[i].Source
		}
		for i := range p.FileRules {
			p.FileRules[i].Source = "managed " + p.FileRules[i].Source
		}
	case scopeProject:
		if why := im.projectTrust(); why != "" {
			p.Rules = im.suspend(p.Rules, why, im.project.how)
			p.FileRules = im.suspendFiles(p.FileRules, why, im.project.how)
		}
	}
	if p.ManagedOnly && sc != scopeManaged {
		im.out.Notes = append(im.out.Notes, Note{Source: p.sourceFile(), Entry: "allowManagedPermissionRulesOnly", Action: Dropped,
			Why: "only an administrator's managed settings can say it"})
	}
	im.out.Rules = append(im.out.Rules, p.Rules...)
	im.out.FileRules = append(im.out.FileRules, p.FileRules...)
	im.out.Notes = append(im.out.Notes, p.Notes...)
}

func (p Parsed) sourceFile() string {
	for _, r := range p.Rules {
		return r.Source
	}
	return ""
}

// suspend keeps the deny and ask rules of rules and notes the allow ones.
func (im *importer) suspend(rules []Rule, why, how string) []Rule {
	var kept []Rule
	for _, r := range rules {
		if r.Decision != Allow {
			kept = append(kept, r)
			continue
		}
		im.out.Suspended = append(im.out.Suspended, SuspendedRule(r, how))
		im.out.Notes = append(im.out.Notes, Note{Source: r.Source, Entry: r.Text, Action: Suspended, Why: why})
	}
	return kept
}

func (im *importer) suspendFiles(rules []FileRule, why, how string) []FileRule {
	var kept []FileRule
	for _, r := range rules {
		if r.Decision != Allow {
			kept = append(kept, r)
			continue
		}
		im.out.SuspendedFiles = append(im.out.SuspendedFiles, SuspendedFileRule(r, how))
		im.out.Notes = append(im.out.Notes, Note{Source: r.Source, Entry: r.Text, Action: Suspended, Why: why})
	}
	return kept
}

// projectTrust says why the project's allow entries do not count, or ""
// when the person trusts it; decided once an import.
func (im *importer) projectTrust() string {
	if im.project == nil {
		im.project = im.at.Trust.decide(im.at)
	}
	return im.project.why
}

// managedOnly drops the allow entries of every file but the
// administrator's, as allowManagedPermissionRulesOnly asks.
func (im *importer) managedOnly() {
	const why = "the administrator's managed settings say allowManagedPermissionRulesOnly: only their allow entries count"
	var rules []Rule
	for _, r := range im.out.Rules {
		if r.Decision == Allow && !strings.HasPrefix(r.Source, "managed ") {
			im.out.Notes = append(im.out.Notes, Note{Source: r.Source, Entry: r.Text, Action: Dropped, Why: why})
			continue
		}
		rules = append(rules, r)
	}
	im.out.Rules = rules
	var files []FileRule
	for _, r := range im.out.FileRules {
		if r.Decision == Allow && !strings.HasPrefix(r.Source, "managed ") {
			im.out.Notes = append(im.out.Notes, Note{Source: r.Source, Entry: r.Text, Action: Dropped, Why: why})
			continue
		}
		files = append(files, r)
	}
	im.out.FileRules = files
}

// managedFiles are an administrator's settings files under dir, as
// Claude Code reads them: managed-settings.json, then the *.json files
// of managed-settings.d in name order, hidden files left out.
func managedFiles(dir string) []string {
	if dir == "" {
		return nil
	}
	files := []string{filepath.Join(dir, "managed-settings.json")}
	d := filepath.Join(dir, "managed-settings.d")
	entries, err := os.ReadDir(d)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// A drop-in directory that cannot be listed is read as a file,
		// which fails and names it.
		return append(files, d)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	for _, n := range names {
		files = append(files, filepath.Join(d, n))
	}
	return files
}

// codex reads Codex's rules files, the user's then the project's.
func (im *importer) codex() {
	files, err := codexFiles(im.at)
	if err != nil {
		var fe *FileError
		if !errors.As(err, &fe) {
			fe = &FileError{File: "codex rules", Msg: err.Error()}
		}
		fe.File = displayPath(fe.File, im.at.Home)
		im.fail(fe, false)
	}
	hosts := map[string][]string{}
	// Each file runs in an evaluator process of its own
	// (codexchild.go), by its own deadline and the import's.
	all, cancel := context.WithTimeout(context.Background(), ImportTime)
	defer cancel()
	for _, cf := range files {
		shown := displayPath(cf.path, im.at.Home)
		src, err := im.read(cf.path)
		if err == errAbsent {
			continue
		}
		if err != nil {
			im.fail(&FileError{File: shown, Msg: err.Error()}, false)
			continue
		}
		im.out.Read = append(im.out.Read, cf.path)
		ctx, cancelFile := context.WithTimeout(all, ChildTime)
		res, err := evalChild(ctx, codexJob{File: cf.path, Home: im.at.Home, Src: src, HostPaths: hosts})
		cancelFile()
		if err == nil && res.Err != nil {
			err = res.Err
		}
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				fe = &FileError{File: shown, Msg: err.Error()}
			}
			im.fail(fe, false)
			continue
		}
		hosts = res.HostPaths
		rules := res.Rules
		im.add(Parsed{Rules: rules}, cf.scope)
	}
}

// claudeFiles are Claude Code's settings files, the user's before the
// project's, as Claude Code reads them.
func claudeFiles(at Places) (user, project []string) {
	if dir := at.ClaudeConfigDir; dir != "" {
		user = append(user, filepath.Join(dir, "settings.json"))
	} else if at.Home != "" {
		user = append(user, filepath.Join(at.Home, ".claude", "settings.json"))
	}
	if at.Cwd != "" {
		project = projectClaudeFiles(at.Cwd)
	}
	all := once(append(slices.Clone(user), project...))
	// A project that is the home (or a link to it) holds the user's
	// file: it is read once, as the user's.
	return user, slices.DeleteFunc(project, func(f string) bool { return !slices.Contains(all[len(user):], f) })
}

// projectClaudeFiles are a project's own Claude Code settings files.
func projectClaudeFiles(dir string) []string {
	return []string{filepath.Join(dir, ".claude", "settings.json"), filepath.Join(dir, ".claude", "settings.local.json")}
}

// once drops a file that is an earlier one of the list (the cwd is the
// home, or a link to it).
func once(files []string) []string {
	var out []string
	var seen []os.FileInfo
	for _, f := range files {
		fi, err := os.Stat(f)
		if err == nil && slices.ContainsFunc(seen, func(s os.FileInfo) bool { return os.SameFile(s, fi) }) {
			continue
		}
		if err == nil {
			seen = append(seen, fi)
		}
		out = append(out, f)
	}
	return out
}

// codexFiles are the *.rules files of Codex's rules directories, the
// user's before the project's, each in name order, as Codex loads them.
func codexFiles(at Places) ([]codexFile, error) {
	var dirs []string
	if home := at.CodexHome; home != "" {
		dirs = append(dirs, filepath.Join(home, "rules"))
	} else if at.Home != "" {
		dirs = append(dirs, filepath.Join(at.Home, ".codex", "rules"))
	}
	nUser := len(dirs)
	if at.Cwd != "" {
		dirs = append(dirs, projectCodexDir(at.Cwd))
	}
	var files []codexFile
	var errs []error
	kept := once(dirs)
	for i, dir := range dirs {
		if !slices.Contains(kept, dir) {
			continue
		}
		sc := scopeUser
		if i >= nUser {
			sc = scopeProject
		}
		names, err := codexNames(dir)
		if err != nil {
			errs = append(errs, &FileError{File: dir, Msg: err.Error()})
			continue
		}
		for _, n := range names {
			files = append(files, codexFile{path: filepath.Join(dir, n), scope: sc})
		}
	}
	return files, errors.Join(errs...)
}

// A codexFile is a rules file and who wrote it.
type codexFile struct {
	path  string
	scope scope
}

// projectCodexDir is a project's own Codex rules directory.
func projectCodexDir(dir string) string { return filepath.Join(dir, ".codex", "rules") }

// codexNames are the *.rules names of a Codex rules directory in name
// order, as Codex loads them; nothing when it is not there. A
// directory that is something else (a file, a FIFO) is an error.
func codexNames(dir string) ([]string, error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if li, lerr := os.Lstat(dir); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			return nil, errors.New("a symbolic link to nothing")
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, errors.New("not a directory")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".rules") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// displayPath shows a path under home as "~/…".
func displayPath(path, home string) string {
	if home == "" {
		return path
	}
	if rel, err := filepath.Rel(home, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && filepath.IsAbs(path) {
		return "~/" + filepath.ToSlash(rel)
	}
	return path
}

// ManagedPresent reports whether an administrator's managed settings
// exist where at reads them (whatever they hold).
func ManagedPresent(at Places) bool {
	if at.ManagedDir != "" {
		for _, n := range []string{"managed-settings.json", "managed-settings.d"} {
			if _, err := os.Lstat(filepath.Join(at.ManagedDir, n)); err == nil {
				return true
			}
		}
	}
	for _, f := range at.ManagedPlists {
		if _, err := os.Lstat(f); err == nil {
			return true
		}
	}
	return false
}
