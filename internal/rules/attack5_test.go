package rules

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestBypassRound5 holds the attempts of testdata/bypass5.jsonl, found
// by an outside attack through real MCP calls, under the same two rule
// sets as the round-2 table: none is allowed under default ask with the
// exact allow list, and none but the ones marked exec-only or ask-only
// under default allow with the deny rules.
func TestBypassRound5(t *testing.T) {
	askDefault, allowDefault := round2Sets(t)
	f, err := os.Open("testdata/bypass5.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		var c round2Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("testdata/bypass5.jsonl line %d: %v", n, err)
		}
		if v := askDefault.Check(c.Command); v.Decision == Allow {
			t.Errorf("default ask: %q (%s) is allowed;%s", c.Command, c.Class, partsText(v))
		}
		if v := allowDefault.Check(c.Command); v.Decision == Allow && !c.ExecOnly && !c.AskOnly {
			t.Errorf("default allow: %q (%s) is allowed;%s", c.Command, c.Class, partsText(v))
		}
	}
	if n == 0 {
		t.Fatal("testdata/bypass5.jsonl holds no attempt")
	}
}

// TestRound5KnownStaysAllowed: an extended glob of literals and a
// descriptor variable without a subscript are still fully known.
func TestRound5KnownStaysAllowed(t *testing.T) {
	askDefault, _ := round2Sets(t)
	for _, in := range []string{
		"shopt -s extglob\nls @(a|b).go",
		"shopt -s extglob\ncase x in @(y|z)) echo y;; esac",
		"echo x {fd}>/dev/null",
		"echo x {a[1]}>/dev/null",
	} {
		if v := askDefault.Check(in); v.Decision != Allow {
			t.Errorf("%q = %v;%s", in, v.Decision, partsText(v))
		}
	}
}

// TestRound5WriteContext: a relative write target is read in the
// directory the command starts in (the cwd parameter, a named session's
// carried cd), a directory with HEAD and config is a repository
// whatever its name, and the file the rules were read from is
// protected.
func TestRound5WriteContext(t *testing.T) {
	askDefault, allowDefault := round2Sets(t)
	root := t.TempDir()
	for _, d := range []string{".git", "ev/objects"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/HEAD", ".git/config", "ev/HEAD", "ev/config"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(t.TempDir(), "p.toml")
	withSource := &Set{Default: Ask, Rules: append([]Rule{}, askDefault.Rules...)}
	for i := range withSource.Rules {
		withSource.Rules[i].Source = cfg + ":3"
	}
	cases := []struct {
		set *Set
		in  string
		cx  Context
	}{
		{askDefault, "cp ../cfg config", Context{Dir: filepath.Join(root, ".git"), CwdParam: ".git"}},
		{allowDefault, "printf '[alias]\\n\\tyy = !rm victim\\n' >> config", Context{Dir: filepath.Join(root, ".git")}},
		{allowDefault, "cp x hooks/pre-commit", Context{Dir: filepath.Join(root, ".git")}},
		{askDefault, "printf x > ev/config", Context{Dir: root}},
		{allowDefault, "printf x > config", Context{Dir: filepath.Join(root, "ev")}},
		{askDefault, "git status", Context{Dir: filepath.Join(root, "ev"), CwdParam: "ev"}},
		{askDefault, "git -C ev status", Context{Dir: root}},
		{askDefault, "git -Cev status", Context{Dir: root}},
		{withSource, "printf '[rules]\\ndefault = \"allow\"\\n' > " + cfg, Context{Dir: root}},
	}
	for _, c := range cases {
		if v := c.set.CheckIn(c.in, c.cx); v.Decision == Allow {
			t.Errorf("%q in %s is allowed;%s", c.in, c.cx.Dir, partsText(v))
		}
	}
	for _, in := range []string{"git status", "git -C sub status", "cp *.txt build/", "echo hi > out.txt", "git log --oneline -3"} {
		if v := askDefault.CheckIn(in, Context{Dir: root}); v.Decision != Allow && in != "cp *.txt build/" && in != "echo hi > out.txt" {
			t.Errorf("%q in the repository = %v;%s", in, v.Decision, partsText(v))
		}
		if v := allowDefault.CheckIn(in, Context{Dir: root}); v.Decision != Allow {
			t.Errorf("default allow: %q in the repository = %v;%s", in, v.Decision, partsText(v))
		}
	}
}

// TestRound5ProgramFile: awk -f FILE is decided as sed -f FILE is
// (ask): the program in the file is not read, and it can start any
// program.
func TestRound5ProgramFile(t *testing.T) {
	_, allowDefault := round2Sets(t)
	allowDefault.Rules = nil
	for _, in := range []string{"awk -f p.awk", "gawk -f p.awk data", "sed -f p.sed f", "make -f /dev/stdin <<< x"} {
		if v := allowDefault.Check(in); v.Decision == Allow {
			t.Errorf("%q is allowed;%s", in, partsText(v))
		}
	}
	for _, in := range []string{"awk '{print $1}' f", "make", "make -f Makefile all"} {
		if v := allowDefault.Check(in); v.Decision != Allow {
			t.Errorf("%q = %v;%s", in, v.Decision, partsText(v))
		}
	}
}

// TestDupOutKnownStaysAllowed: >&N, N>&M, >&- and >&$fd with fd known
// to hold an integer duplicate or close a descriptor and open no file.
func TestDupOutKnownStaysAllowed(t *testing.T) {
	askDefault, _ := round2Sets(t)
	for _, in := range []string{"echo x >&2", "echo x 2>&1", "echo x >&-", "echo x 1>&2-", "fd=3; echo x >&$fd 3>/dev/null", "echo x <&0"} {
		if v := askDefault.Check(in); v.Decision != Allow {
			t.Errorf("%q = %v;%s", in, v.Decision, partsText(v))
		}
	}
}

// A write reaches a file of the list by another name: a path through a
// device directory and "..", a symbolic link a repository ships (cfg ->
// .git/config, g -> .git), or a hard link. Each is asked as the file's
// own name is.
func TestRound5WriteThroughOtherNames(t *testing.T) {
	askDefault, allowDefault := round2Sets(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".git/HEAD", ".git/config"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"cfg": ".git/config", "g": ".git", "h": ".git/hooks", "sub/gg": "../.git"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755)
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(root, ".git/config"), filepath.Join(root, "hl")); err != nil {
		t.Fatal(err)
	}
	cx := Context{Dir: root}
	for _, in := range []string{
		"echo x > /dev/fd/../cwd/.git/config",
		"echo x >> /dev/fd/.././cwd/.git/hooks/pre-commit",
		"echo x > /dev/../root/.bashrc",
		"echo x >> /dev/shm/../../root/.bashrc",
		"echo x > /proc/self/fd/../../../root/.ssh/authorized_keys",
		"printf x >> /dev/null/../../root/.config/spillway/config.toml",
		"echo x > cfg",
		"echo x >> cfg",
		"echo x > g/config",
		"echo x > h/pre-commit",
		"echo x > sub/gg/config",
		"echo x > hl",
		"cat <<< x > hl",
	} {
		for name, set := range map[string]*Set{"ask": askDefault, "allow": allowDefault} {
			if v := set.CheckIn(in, cx); v.Decision == Allow {
				t.Errorf("default %s: %q is allowed;%s", name, in, partsText(v))
			}
		}
	}
	for _, in := range []string{"echo x > out.txt", "echo hi > /dev/null", "echo x >&2", "echo x > /dev/stderr"} {
		if v := allowDefault.CheckIn(in, cx); v.Decision != Allow {
			t.Errorf("default allow: %q = %v;%s", in, v.Decision, partsText(v))
		}
	}
}
