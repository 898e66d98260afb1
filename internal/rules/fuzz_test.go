package rules

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzCheck holds Check to what the rules promise for any input: it
// never panics, every input has a part (no parts is never allow), it
// never allows input that does not parse as bash, and the whole is
// never less strict than any of its parts.
func FuzzCheck(f *testing.F) {
	for _, c := range readCorpus(f) {
		f.Add(c.Command)
	}
	for _, c := range readRound2(f) {
		f.Add(c.Command)
	}
	allowDefault, askDefault := corpusSets(f)
	f.Fuzz(func(t *testing.T, in string) {
		_, perr := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(in), "")
		for _, s := range []*Set{allowDefault, askDefault} {
			v := s.Check(in)
			if len(v.Parts()) == 0 {
				t.Fatalf("%q has no parts", in)
			}
			if perr != nil && v.Decision == Allow {
				t.Fatalf("%q does not parse (%v) but is allowed", in, perr)
			}
			for _, p := range v.Parts() {
				if decided(p) > v.Decision {
					t.Fatalf("%q: part %q is %s, the whole %s", in, p.Command, p.Decision, v.Decision)
				}
				if p.Rule == "" && p.Reason == "" {
					t.Fatalf("%q: part %q has neither rule nor reason", in, p.Command)
				}
			}
		}
	})
}
