package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryProgramIsAPart: a shell whose code is read in turn, and the
// wrappers before it, run as programs: the part list names each, and
// under default ask the carrier is allowed only by a rule that names
// the shell (or the command as written, wrapper and all); its code is
// decided in parts of its own either way. A builtin carrier (eval,
// trap) runs no program of its own and adds no part.
func TestEveryProgramIsAPart(t *testing.T) {
	askDefault, allowDefault := round2Sets(t)
	withBash := &Set{Default: Ask, Rules: append(append([]Rule{}, askDefault.Rules...), corpusRules(t, Allow, "bash *")...)}
	withEnv := &Set{Default: Ask, Rules: append(append([]Rule{}, askDefault.Rules...), corpusRules(t, Allow, "env *")...)}
	cases := []struct {
		set   *Set
		in    string
		want  Decision
		names []string
	}{
		{askDefault, "env 'A B=1' bash -c ls", Ask, []string{"env", "bash", "ls"}},
		{withBash, "env 'A B=1' bash -c ls", Allow, []string{"env", "bash", "ls"}},
		{withEnv, "env 'A B=1' bash -c ls", Allow, []string{"env", "bash", "ls"}},
		{withBash, "env 'A B=1' bash -c 'rm x'", Deny, []string{"env", "bash", "rm"}},
		{withBash, "bash -c 'ls; touch x'", Ask, []string{"bash", "ls", "touch"}},
		{allowDefault, "env 'A B=1' bash -c ls", Allow, []string{"env", "bash", "ls"}},
		{allowDefault, "nice bash -c 'echo hi'", Allow, []string{"nice", "bash", "echo"}},
		{allowDefault, "timeout 5 sh -c 'rm x'", Deny, []string{"timeout", "sh", "rm"}},
		{allowDefault, "xargs sh -c ls", Allow, []string{"xargs", "sh", "ls"}},
		{askDefault, "eval ls", Allow, []string{"ls"}},
		{askDefault, "command eval 'ls -la'", Allow, []string{"ls"}},
		{askDefault, "env ls", Allow, []string{"env", "ls"}},
		{askDefault, "timeout 5 ls -la", Allow, []string{"timeout", "ls"}},
	}
	for _, c := range cases {
		v := c.set.Check(c.in)
		if v.Decision != c.want {
			t.Errorf("%q = %v, want %v;%s", c.in, v.Decision, c.want, partsText(v))
		}
		named := map[string]bool{}
		for _, p := range v.Parts() {
			for _, f := range strings.Fields(p.Command) {
				named[strings.Trim(f, `'"`)] = true
			}
		}
		for _, n := range c.names {
			if !named[n] {
				t.Errorf("%q: no part names %s;%s", c.in, n, partsText(v))
			}
		}
	}
}

// TestTypedIntoCarrier: a shell given its code (bash -c 'read x') is not
// a shell that runs what is typed into it; the code it runs may be.
func TestTypedIntoCarrier(t *testing.T) {
	for in, want := range map[string]string{
		"bash -c 'read x; echo $x'": "",
		"env X=1 sh -c 'cat'":       "",
		"bash -c bash":              "bash",
		"env bash":                  "bash",
		"bash":                      "bash",
		"nice bash -c 'python3'":    "python3",
	} {
		if got, _ := TypedInto(in); got != want {
			t.Errorf("TypedInto(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWritablePathDir: a program allowed by a rule that names it bare is
// ask when PATH lookup finds it in a directory the session can write,
// or in a relative or empty (the working directory) PATH entry: what is
// there is not the program the person meant. Found in a directory the
// session cannot write, it stays allowed; a builtin is not looked up,
// unless a program wrapper runs it; a default allow looks nothing up.
func TestWritablePathDir(t *testing.T) {
	askDefault, allowDefault := round2Sets(t)
	withBash := &Set{Default: Ask, Rules: append(append([]Rule{}, askDefault.Rules...), corpusRules(t, Allow, "bash *")...)}
	root := t.TempDir()
	sys := filepath.Join(root, "sys")
	user := filepath.Join(root, "home/.local/bin")
	work := filepath.Join(root, "work")
	nm := filepath.Join(work, "node_modules/.bin")
	for _, d := range []string{sys, user, nm} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := func(dir, name string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe(sys, "ls")
	exe(sys, "cat")
	exe(sys, "bash")
	exe(user, "cat")
	exe(user, "echo")
	exe(user, "bash")
	exe(nm, "grep")
	exe(work, "ls")
	writable := func(d string) bool { return !strings.HasPrefix(d, sys) }
	cx := func(path string) Context { return Context{Dir: work, PATH: path, Writable: writable} }
	cases := []struct {
		set  *Set
		in   string
		path string
		want Decision
	}{
		{askDefault, "ls -la", sys, Allow},
		{askDefault, "ls -la", user + ":" + sys, Allow},
		{askDefault, "cat f", user + ":" + sys, Ask},
		{askDefault, "cat f", sys + ":" + user, Allow},
		{askDefault, "grep x f", "node_modules/.bin:" + sys, Ask},
		{askDefault, "grep x f", nm + ":" + sys, Ask},
		{askDefault, "ls -la", ":" + sys, Ask},
		{askDefault, "ls -la", sys + "::", Allow},
		{askDefault, "ls -la", ".:" + sys, Ask},
		{askDefault, "echo hi", user + ":" + sys, Allow},
		{askDefault, "nice echo hi", user + ":" + sys, Ask},
		{askDefault, "env cat f", user + ":" + sys, Ask},
		{askDefault, "cat f | ls", user + ":" + sys, Ask},
		{withBash, "bash -c ls", sys, Allow},
		{withBash, "bash -c ls", user + ":" + sys, Ask},
		// Without PATH, bash looks in a default one that ends with the
		// working directory.
		{withBash, "env -i bash -c ls", sys, Ask},
		{withBash, "env - bash -c ls", sys, Ask},
		{withBash, "env --ignore-environment sh -c ls", sys, Ask},
		{askDefault, "env -i ls", sys, Allow},
		{allowDefault, "cat f", user + ":" + sys, Allow},
		{askDefault, "nosuchprogram x", user, Ask},
	}
	for _, c := range cases {
		if v := c.set.CheckIn(c.in, cx(c.path)); v.Decision != c.want {
			t.Errorf("%q with PATH=%s = %v, want %v;%s", c.in, c.path, v.Decision, c.want, partsText(v))
		}
	}
	// What is found changes with the directory: a program put in a
	// writable directory after a check is found by the next.
	if v := askDefault.CheckIn("ls", cx(user+":"+sys)); v.Decision != Allow {
		t.Fatalf("ls before: %v", v.Decision)
	}
	exe(user, "ls")
	if v := askDefault.CheckIn("ls", cx(user+":"+sys)); v.Decision != Ask {
		t.Errorf("ls after one was put in %s: %v;%s", user, v.Decision, partsText(v))
	}
}

// TestWritablePathDirDefault: with no Writable given, a directory is the
// session's when the user can write it (as root, one only root can
// write is the system's unless it is under HOME, the working directory
// or the temp directory): the everyday programs in /usr/bin stay
// allowed, one in a temp directory is ask.
func TestWritablePathDirDefault(t *testing.T) {
	askDefault, _ := round2Sets(t)
	if _, err := os.Stat("/usr/bin/ls"); err != nil {
		t.Skip("no /usr/bin/ls")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "ls"), []byte("#!/bin/sh\n"), 0o755)
	if v := askDefault.CheckIn("ls -la", Context{Dir: dir, PATH: "/usr/bin:/bin"}); v.Decision != Allow {
		t.Errorf("ls in /usr/bin = %v;%s", v.Decision, partsText(v))
	}
	if v := askDefault.CheckIn("ls -la", Context{Dir: dir, PATH: bin + ":/usr/bin:/bin"}); v.Decision != Ask {
		t.Errorf("ls in %s = %v;%s", bin, v.Decision, partsText(v))
	}
}

// TestWritablePathDirWrittenAsPath: a program written as the path lookup
// finds is decided as its bare name is, where lookup finds it counting.
func TestWritablePathDirWrittenAsPath(t *testing.T) {
	askDefault, _ := round2Sets(t)
	dir := t.TempDir()
	user := filepath.Join(dir, "bin")
	writeExe(t, filepath.Join(user, "cat"))
	cx := Context{Dir: dir, PATH: user, Writable: func(string) bool { return true }}
	for _, in := range []string{"cat f", filepath.Join(user, "cat") + " f", "bin/cat f"} {
		if v := askDefault.CheckIn(in, cx); v.Decision != Ask {
			t.Errorf("%q = %v;%s", in, v.Decision, partsText(v))
		}
	}
}

// TestTypedIntoReadline: bash's read with -e (or -E) on a terminal reads
// the line with readline, whose shell-expand-line (ESC C-e) runs the
// command substitutions typed: such a job runs what is typed into it,
// in every spelling of the option, and so does a read whose options or
// a part whose program is known only when it runs. A read without it
// does not.
func TestTypedIntoReadline(t *testing.T) {
	for in, want := range map[string]string{
		"read -e x":                          "read -e",
		"read -re x":                         "read -e",
		"read -e -p x y":                     "read -e",
		"read -ep x y":                       "read -e",
		"read -r -d '' -e x":                 "read -e",
		"read -E x":                          "read -e",
		"builtin read -e x":                  "read -e",
		"command read -e x":                  "read -e",
		"'read' -e x":                        "read -e",
		"rea''d -e x":                        "read -e",
		"eval 'read -e x'":                   "read -e",
		"f(){ read -e x; }; f":               "read -e",
		"echo $(read -e x)":                  "read -e",
		"bash -c 'read -e x'":                "read -e",
		"x=-e; read $x y":                    "read -e",
		"x=read; $x -e":                      "a program known only when it runs",
		"$(echo read) -e x":                  "a program known only when it runs",
		"y=$(cat) read x":                    "",
		"read x":                             "",
		"read -r -p 'name? ' x":              "",
		"read -- -e":                         "",
		"exec bash":                          "bash",
		"bash -i":                            "bash",
		"bind -x '\"\\C-x\": id'; read -e x": "read -e",
	} {
		if got, _ := TypedInto(in); got != want {
			t.Errorf("TypedInto(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestArithmeticTermsCapped: an arithmetic expression of thousands of
// terms is ask, with a reason that says so, and is not walked: walking
// it cost time that grew faster than its length (a 19,000-term
// expression took seconds of checker CPU on a loaded machine). A short
// one is decided as before.
func TestArithmeticTermsCapped(t *testing.T) {
	set := &Set{Default: Allow}
	long := "echo $((" + strings.Repeat("1+", 5000) + "1))"
	for _, in := range []string{long, "((" + strings.Repeat("1+", 5000) + "1))", "let x=" + strings.Repeat("1+", 5000) + "1"} {
		v := set.Check(in)
		if v.Decision != Ask || !strings.Contains(partsText(v), "terms") {
			t.Errorf("%.30q…: %v;%s", in, v.Decision, partsText(v))
		}
	}
	if v := set.Check("echo $((" + strings.Repeat("1+", 50) + "1))"); v.Decision != Allow {
		t.Errorf("a 51-term expression: %v;%s", v.Decision, partsText(v))
	}
}

// BenchmarkCheckLongArithmetic is the 118 KB command of 20,000
// assignments and a 19,000-term sum that docs/rules.md times.
func BenchmarkCheckLongArithmetic(b *testing.B) {
	s := strings.Repeat("x=1;", 20000) + "echo $((" + strings.Repeat("1+", 18999) + "1))"
	set := &Set{Default: Ask, Rules: corpusRules(b, Allow, "echo *", "read *", "ls *")}
	for b.Loop() {
		set.Check(s)
	}
}
