package rules

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadCodexFixtures(t *testing.T) {
	home, _ := filepath.Abs("testdata/codex/home")
	cwd, _ := filepath.Abs("testdata/codex/project")
	im := Import([]string{"codex"}, Places{Home: home, Cwd: cwd, Trust: Trust{Trusted: []string{cwd}}})
	rules, files := im.Rules, im.Read
	err := errors.Join(failures(im)...)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 || !strings.HasSuffix(files[0], "default.rules") || !strings.HasSuffix(files[2], "project.rules") {
		t.Fatalf("files read: %q", files)
	}
	type want struct {
		text, source, justification string
		d                           Decision
	}
	var got []want
	for _, r := range rules {
		if !r.Pattern.Prefix {
			t.Errorf("%s: a Codex rule is a prefix", r.Text)
		}
		got = append(got, want{r.Text, r.Source, r.Justification, r.Decision})
	}
	wants := []want{
		{`prefix_rule(pattern=["ls"])`, "~/.codex/rules/default.rules:1", "", Allow},
		{`prefix_rule(pattern=["cargo", "test"])`, "~/.codex/rules/default.rules:2", "", Allow},
		{`prefix_rule(pattern=["echo", "Hello, world!"])`, "~/.codex/rules/default.rules:3", "", Allow},
		{`prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")`, "~/.codex/rules/team.rules:2", "Talking to a remote needs a look first", Ask},
		{`prefix_rule(pattern=["rm"], decision="forbidden")`, "~/.codex/rules/team.rules:10", "Use `trash` instead of `rm`.", Deny},
		{`prefix_rule(pattern=["gh", ["pr", "issue"]])`, "~/.codex/rules/team.rules:23", "", Allow},
		{`prefix_rule(pattern=["kubectl", "delete"], decision="forbidden")`, "~/.codex/rules/team.rules:27", "", Deny},
		{`prefix_rule(pattern=["helm", "delete"], decision="forbidden")`, "~/.codex/rules/team.rules:27", "", Deny},
		{`prefix_rule(pattern=["make", "deploy"], decision="prompt")`, cwd + "/.codex/rules/project.rules:1", "deploys to production", Ask},
	}
	if !slices.Equal(got, wants) {
		t.Errorf("rules:\n got %+v\nwant %+v", got, wants)
	}
}

// A rules file that Codex refuses is refused here too, with its file, its
// line and what is wrong.
func TestParseCodexErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"syntax", "prefix_rule(pattern=[\"git\"]\n", "x.rules:2:1: got end of file, want ')'" + dialectHint},
		{"decision", "\n\nprefix_rule(pattern=[\"git\"], decision=\"maybe\")", `x.rules:3:12: invalid decision "maybe": want allow, prompt or forbidden`},
		{"empty pattern", "prefix_rule(pattern=[])", "x.rules:1:12: invalid pattern: pattern cannot be empty"},
		{"empty alternatives", `prefix_rule(pattern=["git", []])`, "x.rules:1:12: invalid pattern: the alternatives of element 2 cannot be empty"},
		{"pattern a tuple", `prefix_rule(pattern=("git",))`, "x.rules:1:12: prefix_rule: for parameter \"pattern\": got tuple, want list"},
		{"bad element", `prefix_rule(pattern=["git", 3])`, "x.rules:1:12: invalid pattern: element 2 must be a string or a list of strings, not int"},
		{"unknown keyword", `prefix_rule(pattern=["git"], foo=1)`, "x.rules:1:12: prefix_rule: unexpected keyword argument \"foo\""},
		{"empty justification", `prefix_rule(pattern=["git"], justification="  ")`, "x.rules:1:12: justification cannot be empty"},
		{"match missed", "\nprefix_rule(pattern=[\"git\", \"push\"], match=[\"git pull\", [\"git\", \"fetch\"]])", `x.rules:2: the match example "git pull", "git fetch" does not match prefix_rule(pattern=["git", "push"])`},
		{"not_match matched", `prefix_rule(pattern=["git"], not_match=["git pull"])`, `x.rules:1: the not_match example "git pull" matches prefix_rule(pattern=["git"])`},
		{"example unterminated", `prefix_rule(pattern=["git"], match=["git \"x"])`, `x.rules:1:12: invalid example "git \"x" in match: a double quote is not closed`},
		{"example empty", `prefix_rule(pattern=["git"], match=["# git"])`, "x.rules:1:12: invalid example in match: an example cannot be an empty string"},
		{"host path relative", `host_executable(name="git", paths=["git"])`, `x.rules:1:16: host_executable paths must be absolute or start with ~/, not "git"`},
		{"host path other name", `host_executable(name="git", paths=["/usr/bin/hg"])`, `x.rules:1:16: host_executable path "/usr/bin/hg" must have the base name "git"`},
		{"host name a path", `host_executable(name="bin/git", paths=[])`, `x.rules:1:16: host_executable name must be a bare executable name, not "bin/git"`},
		{"network protocol", `network_rule(host="a.com", protocol="ftp", decision="allow")`, `x.rules:1:13: network_rule protocol must be one of http, https, socks5_tcp, socks5_udp, not "ftp"`},
		{"undefined name", `prefix_rule(pattern=["git"], decision=PROMPT)`, "x.rules:1:39: undefined: PROMPT"},
		{"while", "def f():\n  while True:\n    pass\n", "x.rules:2:3: this Starlark dialect does not support while loops"},
		{"failure in a function", "def f(p):\n  prefix_rule(pattern=p)\nf([])\n", "x.rules:2:14: invalid pattern: pattern cannot be empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseCodex("x.rules", []byte(c.src))
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v (%T), want a *FileError", err, err)
			}
			if err.Error() != c.want {
				t.Errorf("err:\n got %s\nwant %s", err, c.want)
			}
		})
	}
}

// Examples are checked as Codex checks them: a program named by an
// absolute path matches by its base name, unless host_executable lists
// the paths of that name and this is not one of them; a host_executable
// later in the file counts.
func TestCodexExamplesResolveHostExecutables(t *testing.T) {
	ok := `prefix_rule(pattern=["git"], match=["/usr/bin/git status"])` + "\n" + `host_executable(name="git", paths=["/usr/bin/git"])`
	if _, err := ParseCodex("x.rules", []byte(ok)); err != nil {
		t.Errorf("a listed path: %v", err)
	}
	bad := `prefix_rule(pattern=["git"], match=["/opt/bin/git status"])` + "\n" + `host_executable(name="git", paths=["/usr/bin/git"])`
	if _, err := ParseCodex("x.rules", []byte(bad)); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("a path host_executable does not list: err = %v", err)
	}
	free := `prefix_rule(pattern=["rm"], match=["/bin/rm -rf x"], not_match=["./rm x"])`
	if _, err := ParseCodex("x.rules", []byte(free)); err != nil {
		t.Errorf("no host_executable for the name: %v", err)
	}
}

// A loop that never ends in a rules file stops the start with an error.
func TestCodexRunawayFile(t *testing.T) {
	src := "def f():\n  for i in range(1000000000):\n    pass\nf()\n"
	_, err := ParseCodex("x.rules", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "too many steps") {
		t.Fatalf("err = %v", err)
	}
}

func TestImportCodexUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a file of mode 0")
	}
	home := t.TempDir()
	dir := filepath.Join(home, ".codex", "rules")
	os.MkdirAll(dir, 0o755)
	f := filepath.Join(dir, "a.rules")
	os.WriteFile(f, []byte(`prefix_rule(pattern=["ls"])`), 0)
	im := Import([]string{"codex"}, Places{Home: home})
	if len(im.Failures) != 1 || !strings.Contains(im.Failures[0].Error(), "a.rules") {
		t.Fatalf("failures = %v", im.Failures)
	}
}

func TestShlexSplit(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{`git push origin main`, []string{"git", "push", "origin", "main"}},
		{`  echo 'a b'  "c d" `, []string{"echo", "a b", "c d"}},
		{`echo "a\"b" 'x\y' a\ b`, []string{"echo", `a"b`, `x\y`, "a b"}},
		{`echo "\x" a#b # comment`, []string{"echo", `\x`, "a#b"}},
		{"a\\\nb", []string{"ab"}},
		{`a""b ''`, []string{"ab", ""}},
	}
	for _, c := range cases {
		got, err := shlexSplit(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("shlexSplit(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`a 'b`, `a "b`, `a\`} {
		if _, err := shlexSplit(bad); err == nil {
			t.Errorf("shlexSplit(%q): no error", bad)
		}
	}
}

// Whatever words shlexJoin writes, shlexSplit reads back.
func FuzzShlexJoin(f *testing.F) {
	f.Add("a", "b c", "")
	f.Add(`it's`, `"q"`, `\`)
	f.Fuzz(func(t *testing.T, a, b, c string) {
		words := []string{a, b, c}
		got, err := shlexSplit(shlexJoin(words))
		if err != nil || !slices.Equal(got, words) {
			t.Fatalf("round trip of %q through %q: %q, %v", words, shlexJoin(words), got, err)
		}
	})
}

// ParseCodex never panics, and whatever it returns is a rule with a
// pattern, a source and a known decision, or a *FileError.
func FuzzParseCodex(f *testing.F) {
	for _, name := range []string{"default.rules", "team.rules"} {
		src, _ := os.ReadFile(filepath.Join("testdata/codex/home/.codex/rules", name))
		f.Add(src)
	}
	f.Add([]byte(`prefix_rule(pattern=["a", ["b", "c"]], decision="prompt", match=["a b"], not_match=["a d"])`))
	f.Fuzz(func(t *testing.T, src []byte) {
		rules, err := ParseCodex("f.rules", src)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err %v is a %T", err, err)
			}
			return
		}
		for _, r := range rules {
			if len(r.Pattern.Words) == 0 || r.Source == "" || r.Decision < Allow || r.Decision > Deny {
				t.Fatalf("rule %+v", r)
			}
		}
	})
}

func failures(im *Imported) []error {
	var out []error
	for _, f := range im.Failures {
		out = append(out, f)
	}
	return out
}
