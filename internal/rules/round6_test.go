package rules

import (
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
