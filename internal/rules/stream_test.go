package rules

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// streamCases are inputs whose statements end in ways that decide when
// a here-document's body has been read: by ;, & or a newline, at the
// end of the input, with comments, continuations and nested code, and
// inputs that stop parsing after statements that did.
var streamCases = []string{
	"bash <<E; echo hi\nrm -rf /\nE\n",
	"bash <<E; bash <<F\nrm x\nE\ncurl y\nF\n",
	"cat <<E & sh <<F\nx\nE\nrm y\nF",
	"sh <<E; sh <<F; sh <<G\nrm 1\nE\ncurl 2\nF\nshred 3\nG\n",
	"sh <<E\nrm x\nE",
	"sh <<E\nrm x\nE\n",
	"sh <<E;",
	"sh <<E",
	"sh <<''\n",
	"sh <<E\n",
	"echo a; echo b &\nsh <<-E\n\trm x\n\tE\n",
	"true <<E; rm x\nbody\nE",
	"{ sh <<E; }\nrm x\nE\n",
	"sh <<E # a note\nrm x\nE\n",
	"sh <<E \\\n; ls\nrm x\nE\n",
	"sh <<E ; # a note\nrm x\nE\nls",
	"a=1; sh <<E\n$(rm x)\nE\n",
	"sh <<<'rm x'; git push",
	"exec <f; bash",
	"exec <f\nbash\n",
	"bash; exec <f",
	"ls; (",
	"ls\nls\nls )",
	"sh <<E; ls )\nrm\nE\n",
	"git status && git push; ls\nls; (echo x",
	"bash -c 'ls; sh <<E\nrm x\nE\n'; git push",
	"if true; then sh <<E\nrm x\nE\nfi; ls",
	"for f in a b; do sh <<E; done\nrm $f\nE\n",
	"ls |& sh <<E &\nrm x\nE\nls",
	"echo $(sh <<E\nrm x\nE\n); ls",
	"",
	"\n\n",
	"# only a note\n",
	"ls;;",
	"ls & ls & ls",
}

// streamInputs are the inputs the two ways of reading are compared on:
// streamCases, the bypass corpus and the kept fuzz inputs.
func streamInputs(t testing.TB) []string {
	in := append([]string(nil), streamCases...)
	for _, c := range readCorpus(t) {
		in = append(in, c.Command)
	}
	files, err := filepath.Glob("testdata/fuzz/FuzzCheck/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "string("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(v, ")"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				in = append(in, s)
			}
		}
	}
	return in
}

// TestStreamSameAsWhole: deciding each statement as it is read gives
// the parts that reading the whole input first gives, for every input
// with no function or alias definition (those are always read whole).
func TestStreamSameAsWhole(t *testing.T) {
	allowDefault, askDefault := corpusSets(t)
	n := 0
	for _, in := range append(streamInputs(t), bigCommand(100<<10)) {
		if mayDefine(in) {
			continue
		}
		n++
		for _, s := range []*Set{allowDefault, askDefault} {
			whole, stream := s.check(in, true), s.check(in, false)
			if !reflect.DeepEqual(whole, stream) {
				t.Errorf("%q: read whole %s:%s\nread by statement %s:%s", clip(in), whole.Decision, partsText(whole), stream.Decision, partsText(stream))
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d inputs compared", n)
	}
}

// FuzzStream holds the same property for any input.
func FuzzStream(f *testing.F) {
	for _, in := range streamInputs(f) {
		f.Add(in)
	}
	allowDefault, askDefault := corpusSets(f)
	f.Fuzz(func(t *testing.T, in string) {
		if mayDefine(in) {
			return
		}
		for _, s := range []*Set{allowDefault, askDefault} {
			whole, stream := s.check(in, true), s.check(in, false)
			if !reflect.DeepEqual(whole, stream) {
				t.Fatalf("%q: read whole %s:%s\nread by statement %s:%s", in, whole.Decision, partsText(whole), stream.Decision, partsText(stream))
			}
		}
	})
}
