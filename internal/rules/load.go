package rules

import (
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
	// Cwd is the working directory, whose .claude/settings.json,
	// .claude/settings.local.json and .codex/rules/ are read too.
	Cwd string
	// ClaudeConfigDir, when set, replaces ~/.claude for the user's
	// settings (Claude Code's CLAUDE_CONFIG_DIR).
	ClaudeConfigDir string
	// CodexHome, when set, replaces ~/.codex (Codex's CODEX_HOME).
	CodexHome string
}

// PlacesFromEnv returns the places of the person running the process:
// their home, the cwd given, and the two tools' own variables.
func PlacesFromEnv(cwd string) Places {
	home, _ := os.UserHomeDir()
	return Places{Home: home, Cwd: cwd, ClaudeConfigDir: os.Getenv("CLAUDE_CONFIG_DIR"), CodexHome: os.Getenv("CODEX_HOME")}
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

// Import reads the rules of the tools named (see Imports), in the order
// named: a missing file is no rule, a file that cannot be read or used
// is an error naming it. It also returns the files it read.
func Import(names []string, at Places) ([]Rule, []string, error) {
	var all []Rule
	var read []string
	for _, name := range names {
		var files []string
		var rules []Rule
		var err error
		switch name {
		case "claude-code":
			files = claudeFiles(at)
			rules, err = ReadClaude(files, at.Home, readIfThere)
		case "codex":
			if files, err = codexFiles(at); err == nil {
				rules, err = ReadCodex(files, at.Home, os.ReadFile)
			}
		default:
			return nil, nil, fmt.Errorf("unknown import %q; want %s", name, strings.Join(Imports, " or "))
		}
		if err != nil {
			return nil, nil, err
		}
		for _, f := range files {
			if _, err := os.Stat(f); err == nil {
				read = append(read, f)
			}
		}
		all = append(all, rules...)
	}
	return all, read, nil
}

// claudeFiles are Claude Code's settings files, the user's before the
// project's, as Claude Code reads them.
func claudeFiles(at Places) []string {
	var files []string
	if dir := at.ClaudeConfigDir; dir != "" {
		files = append(files, filepath.Join(dir, "settings.json"))
	} else if at.Home != "" {
		files = append(files, filepath.Join(at.Home, ".claude", "settings.json"))
	}
	if at.Cwd != "" {
		files = append(files,
			filepath.Join(at.Cwd, ".claude", "settings.json"),
			filepath.Join(at.Cwd, ".claude", "settings.local.json"))
	}
	return once(files)
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
func codexFiles(at Places) ([]string, error) {
	var dirs []string
	if home := at.CodexHome; home != "" {
		dirs = append(dirs, filepath.Join(home, "rules"))
	} else if at.Home != "" {
		dirs = append(dirs, filepath.Join(at.Home, ".codex", "rules"))
	}
	if at.Cwd != "" {
		dirs = append(dirs, filepath.Join(at.Cwd, ".codex", "rules"))
	}
	var files []string
	for _, dir := range once(dirs) {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, &FileError{File: dir, Msg: err.Error()}
		}
		var names []string
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".rules") && !e.IsDir() {
				names = append(names, e.Name())
			}
		}
		slices.Sort(names)
		for _, n := range names {
			files = append(files, filepath.Join(dir, n))
		}
	}
	return files, nil
}

// readIfThere reads a file; a file that is not there reads as nothing.
func readIfThere(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
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
