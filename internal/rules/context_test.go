package rules

import (
	"os"
	"path/filepath"
	"testing"
)

func writeExe(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// A program written as a path is allowed by a rule on its base name only
// when it is the file PATH lookup finds, in the part's PATH and working
// directory.
func TestPathProgramIsLookup(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	writeExe(t, filepath.Join(bin, "ls"))
	writeExe(t, filepath.Join(dir, "work", "ls"))
	writeExe(t, filepath.Join(dir, "work", "tools", "git"))
	// bin stands for a system directory, one the session cannot write.
	cx := Context{Dir: filepath.Join(dir, "work"), PATH: bin, Writable: func(d string) bool { return d != bin }}
	s := setOf(t, Ask, corpusRules(t, Allow, "ls *", "git status"))
	for in, want := range map[string]Decision{
		"ls -la":                                 Allow,
		filepath.Join(bin, "ls") + " -la":        Allow,
		filepath.Join(bin, ".", "ls"):            Allow,
		"./ls -la":                               Ask,
		"ls; ./ls":                               Ask,
		"../bin/ls":                              Allow,
		"tools/git status":                       Ask,
		"cd ../bin && ./ls":                      Ask,
		filepath.Join(dir, "work", "ls") + " -l": Ask,
		"/nonexistent/ls":                        Ask,
	} {
		if v := s.CheckIn(in, cx); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
	// A rule that names a path allows that path.
	s2 := setOf(t, Ask, corpusRules(t, Allow, filepath.Join(dir, "work", "ls")+" *"))
	if v := s2.CheckIn(filepath.Join(dir, "work", "ls")+" -l", cx); v.Decision != Allow {
		t.Errorf("a rule naming the path: %v;%s", v.Decision, partsText(v))
	}
}

// git's aliases are resolved in the part's directory: an alias of push
// is push, an alias that runs a shell command is ask.
func TestGitAliases(t *testing.T) {
	asked := ""
	cx := Context{Dir: "/repo", GitAliases: func(dir string) map[string]string {
		asked = dir
		return map[string]string{"p": "push", "st": "status", "x": "!rm -f victim", "pp": "p --force", "lg": "log --oneline"}
	}}
	s := setOf(t, Ask, corpusRules(t, Allow, "git status", "git log *"), corpusRules(t, Ask, "git push *"), corpusRules(t, Deny, "git push --force *"))
	for in, want := range map[string]Decision{
		"git st":           Allow,
		"git lg -5":        Allow,
		"git p":            Ask,
		"git pp":           Deny,
		"git x":            Ask,
		"git -C . st":      Allow,
		"cd sub && git st": Ask,
		"git status":       Allow,
		"git unknown":      Ask,
	} {
		if v := s.CheckIn(in, cx); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
	if asked != "/repo" {
		t.Errorf("aliases read in %q, want /repo", asked)
	}
	// git status needs no lookup.
	asked = ""
	s.CheckIn("git status", cx)
	if asked != "" {
		t.Errorf("git status read the aliases")
	}
}

// When git's configuration includes files the lookup did not read, a
// subcommand git does not know may be an alias there: ask, even where
// a rule allows it by name. A known alias and a builtin are unchanged.
func TestGitAliasesUnread(t *testing.T) {
	cx := Context{Dir: "/repo", GitAliases: func(string) map[string]string {
		return map[string]string{"st": "status", AliasesUnread: "include.path"}
	}}
	s := setOf(t, Ask, corpusRules(t, Allow, "git status", "git *"))
	for in, want := range map[string]Decision{"git st": Allow, "git status": Allow, "git p": Ask} {
		if v := s.CheckIn(in, cx); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
}

// Writing a file a program loads code or configuration from is ask,
// whoever writes it.
func TestCodeLoadingWrites(t *testing.T) {
	bin := t.TempDir()
	cx := Context{Dir: "/work", PATH: bin}
	s := setOf(t, Allow)
	for in, want := range map[string]Decision{
		"echo x >> .git/config":              Ask,
		"echo x > sub/.git/hooks/pre-commit": Ask,
		"cp a .git/config":                   Ask,
		"cp a " + bin + "/ls":                Ask,
		"echo x > " + bin + "/ls":            Ask,
		"tee ~/.bashrc < x":                  Ask,
		"dd if=x of=.git/config":             Ask,
		"sed -i s/a/b/ .git/config":          Ask,
		"sed s/a/b/ .git/config":             Allow,
		"echo x > out.log":                   Allow,
		"cp a b":                             Allow,
		"echo x > /dev/null":                 Allow,
		"cat .git/config":                    Allow,
		"echo x > x.pth":                     Ask,
		"echo x > .claude/settings.json":     Ask,
	} {
		if v := s.CheckIn(in, cx); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
}

// The env and cwd parameters are inputs of the call: a listed variable
// in env is ask, and a cwd is decided by the rules that name cd.
func TestCallInputs(t *testing.T) {
	s := setOf(t, Ask, corpusRules(t, Allow, "ls *"), corpusRules(t, Deny, "cd /etc"))
	for _, c := range []struct {
		cx   Context
		want Decision
	}{
		{Context{Env: map[string]string{"BASH_ENV": "./e.sh"}}, Ask},
		{Context{Env: map[string]string{"PATH": "./bin:/usr/bin"}}, Ask},
		{Context{Env: map[string]string{"LD_PRELOAD": "x.so"}}, Ask},
		{Context{Env: map[string]string{"CI": "1", "X": "y"}}, Allow},
		{Context{Env: map[string]string{"X": "a[$(rm x)]"}}, Ask},
		{Context{CwdParam: "sub"}, Allow},
		{Context{CwdParam: "/etc"}, Deny},
	} {
		if v := s.CheckIn("ls", c.cx); v.Decision != c.want {
			t.Errorf("ls with %+v = %v, want %v;%s", c.cx, v.Decision, c.want, partsText(v))
		}
	}
}
