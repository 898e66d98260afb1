package rules

import (
	"strings"
	"testing"
)

func setOf(t *testing.T, def Decision, rules ...[]Rule) *Set {
	s := &Set{Default: def}
	for _, r := range rules {
		s.Rules = append(s.Rules, r...)
	}
	return s
}

func TestCheckNoParts(t *testing.T) {
	s := setOf(t, Allow)
	// No parts is never allow: an input that holds no command is ask.
	for _, in := range []string{"", "   \n", "# only a comment"} {
		v := s.Check(in)
		if v.Decision != Ask || len(v.Parts()) != 1 {
			t.Errorf("%q = %v with %d parts, want ask with one", in, v.Decision, len(v.Parts()))
		}
	}
	// Assignments of variables on neither list run no program and are
	// fully known: one allow part says so, whatever the default.
	for _, in := range []string{"FOO=bar", "a=1 b=2", "x=3; (( x > 2 ))"} {
		v := setOf(t, Ask).Check(in)
		if v.Decision != Allow || len(v.Parts()) == 0 {
			t.Errorf("%q = %v with %d parts, want allow with a part;%s", in, v.Decision, len(v.Parts()), partsText(v))
		}
	}
}

func TestCheckDoesNotParse(t *testing.T) {
	s := setOf(t, Allow)
	for _, in := range []string{"echo 'x", "ls )", "if true; then", "a=(", "cat <<E\nx"} {
		v := s.Check(in)
		if v.Decision != Ask || len(v.Parts()) != 1 || !strings.Contains(v.Parts()[0].Reason, "does not parse") {
			t.Errorf("%q = %v %+v, want ask saying it does not parse", in, v.Decision, v.Parts())
		}
	}
}

func TestCheckNilSet(t *testing.T) {
	var s *Set
	if v := s.Check("ls"); v.Decision != Allow {
		t.Errorf("nil set: %v", v.Decision)
	}
}

// An allow rule whose match depends on an expansion does not allow.
func TestCheckExpansionArgument(t *testing.T) {
	s := setOf(t, Ask, corpusRules(t, Allow, "git status", "ls *"))
	for in, want := range map[string]Decision{
		"git status":                           Allow,
		"git $X":                               Ask,
		`git "$X"`:                             Ask,
		"git status $X":                        Ask,
		`git status "$X"`:                      Ask,
		"git -C dir status":                    Allow,
		"git -Cdir status":                     Allow,
		"git --no-pager status":                Allow,
		"git -c core.fsmonitor=x status":       Ask,
		"git -ccore.pager=x status":            Ask,
		"git --config-env=core.pager=E status": Ask,
		"git --exec-path=/tmp status":          Ask,
		"ls $X":                                Allow,
		"ls *.go":                              Allow,
	} {
		if v := s.Check(in); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
	// A -c key that runs code is ask even under allow git *; one that
	// does not is allowed by the subcommand's rule.
	s2 := setOf(t, Ask, corpusRules(t, Allow, "git *", "git status"))
	for in, want := range map[string]Decision{
		"git -c core.pager=less log":               Ask,
		"git -c alias.x='!sh' x":                   Ask,
		"git -c diff.foo.textconv=./x log":         Ask,
		"git --config-env=core.sshCommand=X fetch": Ask,
		"git -c color.ui=always log":               Allow,
		"git -c color.ui=always status":            Allow,
		"git config core.fsmonitor ./x":            Ask,
		"git config set alias.p '!rm x'":           Ask,
		"git config --get core.fsmonitor":          Allow,
		"git config user.name me":                  Allow,
	} {
		if v := s2.Check(in); v.Decision != want {
			t.Errorf("allow git *: %q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
}

func TestCheckRuleAndReason(t *testing.T) {
	s := setOf(t, Allow, corpusRules(t, Deny, "rm *"))
	v := s.Check("ls && sudo rm -rf /")
	if v.Decision != Deny || len(v.Parts()) != 2 {
		t.Fatalf("got %v%s", v.Decision, partsText(v))
	}
	p := v.Parts()[1]
	if p.Decision != "deny" || p.Rule != "rm *" || p.Source != "corpus" || p.Command != "sudo rm -rf /" {
		t.Errorf("denied part: %+v", p)
	}
	if v.Parts()[0].Rule != "" || !strings.Contains(v.Parts()[0].Reason, "default") {
		t.Errorf("default part: %+v", v.Parts()[0])
	}
}

func TestCheckInteractive(t *testing.T) {
	s := setOf(t, Allow)
	for in, want := range map[string]bool{
		"bash":             true,
		"sudo -i":          true,
		"sudo -s":          true,
		"sudo ls":          false,
		"python3":          true,
		"su":               true,
		"node":             true,
		"bash -c ls":       false,
		"bash script.sh":   false,
		"python3 x.py":     false,
		"ls":               false,
		"echo x | python3": false,
	} {
		v := s.Check(in)
		got := len(v.Interactive()) > 0
		for _, i := range v.Interactive() {
			if i < 0 || i >= len(v.Parts()) {
				t.Fatalf("%q: interactive part %d of %d", in, i, len(v.Parts()))
			}
		}
		if got != want {
			t.Errorf("%q: interactive %v, want %v;%s", in, got, want, partsText(v))
		}
	}
}

func TestCheckDepthLimit(t *testing.T) {
	s := &Set{Default: Allow, MaxDepth: 1}
	if v := s.Check("bash -c 'ls'"); v.Decision != Allow {
		t.Errorf("one level: %v%s", v.Decision, partsText(v))
	}
	v := s.Check(`bash -c "bash -c 'ls'"`)
	if v.Decision != Ask || !strings.Contains(partsText(v), "nested more than 1") {
		t.Errorf("two levels with MaxDepth 1: %v%s", v.Decision, partsText(v))
	}
}

// A rule that allows an interpreter by name lifts the caution about
// code it reads; nothing lifts a program known only when it runs.
func TestCheckAllowedByName(t *testing.T) {
	s := setOf(t, Ask, corpusRules(t, Allow, "python3 *", "bash *", "ls *"))
	for in, want := range map[string]Decision{
		"python3 -c 'print(1)'": Allow,
		"echo x | python3":      Ask, // echo is not allowed
		"ls | python3":          Allow,
		"ls | bash":             Allow,
		"$X ls":                 Ask,
		"PATH=/x ls":            Ask,
	} {
		if v := s.Check(in); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
}

func TestDecodeANSIC(t *testing.T) {
	for in, want := range map[string]string{
		`\x72m`: "rm", `\162m`: "rm", `\u0072m`: "rm", `\U00000072m`: "rm",
		`a\nb`: "a\nb", `\'`: "'", `\cA`: "\x01", `\q`: `\q`, `\x`: `\x`, `\e`: "\x1b",
	} {
		if got := decodeANSIC(in); got != want {
			t.Errorf("decodeANSIC(%q) = %q, want %q", in, got, want)
		}
	}
}

// Privilege wrappers are seen through for deny, never for allow: the
// wrapper needs a rule of its own.
func TestPrivilegeWrappers(t *testing.T) {
	s := setOf(t, Allow, corpusRules(t, Deny, "rm *"), corpusRules(t, Allow, "sudo apt *", "ls *"))
	for in, want := range map[string]Decision{
		"sudo ls":            Ask,
		"sudo rm -rf /x":     Deny,
		"sudo apt update":    Allow,
		"doas ls":            Ask,
		"su -c ls":           Ask,
		"su -c 'rm x'":       Deny,
		"chroot / ls":        Ask,
		"sg adm ls":          Ask,
		"runuser -u x -- ls": Ask,
		"pkexec ls":          Ask,
		"setpriv ls":         Ask,
		"ls":                 Allow,
	} {
		if v := s.Check(in); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
}

// Under default allow, a part whose words name a denied program is ask:
// the parser cannot see every way it may be run.
func TestNamesDenied(t *testing.T) {
	s := setOf(t, Allow, corpusRules(t, Deny, "rm *", "git push *"))
	for in, want := range map[string]Decision{
		"my-wrapper rm -f x":                       Ask,
		"socat - EXEC:'rm -f x'":                   Ask,
		"frob --cmd=/bin/rm x":                     Ask,
		"tool 'git push origin'":                   Ask,
		"echo git; echo push":                      Allow,
		"echo format":                              Allow,
		"command -v rm":                            Allow,
		"ls -la":                                   Allow,
		"awk '{ print }' f":                        Allow,
		"awk 'BEGIN { print \"RM\" }'":             Ask,
		"python3 -c 'import os; os.remove(\"x\")'": Ask, // code inline
	} {
		if v := s.Check(in); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
}

// spillway bash's command is read in turn, as bash -c's is.
func TestSpillwayBashIsAWrapper(t *testing.T) {
	s := setOf(t, Allow, corpusRules(t, Deny, "rm *"))
	for in, want := range map[string]Decision{
		"spillway bash 'rm -f x'":             Deny,
		"spillway bash --timeout 5000 'rm x'": Deny,
		"spillway bash -- rm -f x":            Deny,
		"spillway bash 'ls -la'":              Allow,
		"spillway bash \"$CMD\"":              Ask,
		"spillway mcp":                        Ask,
	} {
		if v := s.Check(in); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
}
