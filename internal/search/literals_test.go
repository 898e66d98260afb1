package search

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func extract(t testing.TB, expr string) Literals {
	t.Helper()
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	return ExtractLiterals(re.Simplify())
}

func TestExtractLiterals(t *testing.T) {
	cases := []struct {
		expr  string
		req   [][]string // nil: no prefilter
		exact bool
		fold  bool
	}{
		{"ErrUnexpectedEOF", [][]string{{"ErrUnexpectedEOF"}}, true, false},
		{`func \w+Error\(`, [][]string{{"Error("}, {"func "}}, false, false},
		{"foo|bar", [][]string{{"bar", "foo"}}, true, false},
		{"colou?r", [][]string{{"color", "colour"}}, true, false},
		{"^package main$", [][]string{{"package main"}}, false, false},
		{`\bword\b`, [][]string{{"word"}}, false, false},
		{"[Ee]rror", [][]string{{"rror"}}, false, false},
		{"[Ee]rror|fail", [][]string{{"fail", "rror"}}, false, false},
		{"a.*b", [][]string{{"a"}, {"b"}}, false, false},
		{"(abc)+x", [][]string{{"abc"}, {"x"}}, false, false},
		{"x*", nil, false, false},
		{".", nil, false, false},
		{`\w+`, nil, false, false},
		{"(?:foo)?bar", [][]string{{"bar", "foobar"}}, true, false},
		{"(?i)error", [][]string{{"error"}}, false, true},
		// k and s have non-ASCII case variants (Kelvin sign, long s):
		// they split a case-insensitive literal.
		{"(?i)unsafe", [][]string{{"afe"}, {"un"}}, false, true},
		{"(?i)kelvin", [][]string{{"elvin"}}, false, true},
		{"(?i)ab|(?i)cd", [][]string{{"ab", "cd"}}, false, true},
		{"Case(?i)less", [][]string{{"Case"}}, false, false},
		{"a\nb", [][]string{{"a\nb"}}, false, false},
		{"日本語", [][]string{{"日本語"}}, true, false},
	}
	for _, c := range cases {
		got := extract(t, c.expr)
		if !slices.EqualFunc(got.Required, c.req, slices.Equal) || got.Exact != c.exact || got.Fold != c.fold {
			t.Errorf("ExtractLiterals(%q) = %+v; want Required %q Exact %v Fold %v", c.expr, got, c.req, c.exact, c.fold)
		}
	}
}

// checkLiterals asserts the prefilter's contract on one line: a line the
// regexp matches holds a string of every required set (in ASCII-lowered
// form when Fold), and when Exact, holding a primary string is a match.
func checkLiterals(t *testing.T, expr, line string) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return
	}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatalf("regexp compiles %q but syntax.Parse fails: %v", expr, err)
	}
	lits := ExtractLiterals(tree.Simplify())
	b := []byte(line)
	low := b
	if lits.Fold {
		low = make([]byte, len(b))
		lowerASCII(low, b)
	}
	holds := func(set []string) bool {
		return slices.ContainsFunc(set, func(s string) bool { return bytes.Contains(low, []byte(s)) })
	}
	if re.Match(b) {
		for _, set := range lits.Required {
			if !holds(set) {
				t.Fatalf("%q matches %q but the line lacks all of the required %q (literals %+v)", expr, line, set, lits)
			}
		}
	}
	if lits.Exact && !strings.Contains(line, "\n") && holds(lits.Required[0]) != re.Match(b) {
		t.Fatalf("%q is exact %q but matching %q disagrees (regexp says %v)", expr, lits.Required[0], line, re.Match(b))
	}
}

func FuzzExtractLiterals(f *testing.F) {
	for _, s := range []struct{ expr, line string }{
		{"ErrUnexpectedEOF", "return io.ErrUnexpectedEOF"},
		{`func \w+Error\(`, "func newError(x int)"},
		{"(?i)unſafe", "UNSAFE"},
		{"(?i)kelvin", "\u212aelvin"},
		{"foo|ba[rz]", "a baz"},
		{"colou?r", "COLOR colour"},
		{"^a+b$", "aaab"},
		{"(?i)straße", "STRASSE strasse"},
		{"x{2,3}y", "xxy"},
		{`[^a]bc|\bq`, "q"},
	} {
		f.Add(s.expr, s.line)
	}
	f.Fuzz(func(t *testing.T, expr, line string) {
		if len(expr) > 200 || !utf8.ValidString(expr) {
			return
		}
		checkLiterals(t, expr, line)
		// Lines that hold the pattern's own text match more often.
		checkLiterals(t, expr, expr)
		checkLiterals(t, expr, line+expr+line)
		checkLiterals(t, expr, strings.ToUpper(expr))
	})
}

func TestMatcherPrefilterFindsAll(t *testing.T) {
	// The multi-literal prefilter returns each occurrence in order.
	var p prefilter
	buf := []byte("xx foo yy bar foo zz baz")
	p.reset(newFinders([][]byte{[]byte("foo"), []byte("bar"), []byte("baz")}), buf)
	var got []int
	for pos := 0; ; {
		i := p.find(pos)
		if i < 0 {
			break
		}
		got = append(got, i)
		pos = i + 1
	}
	if want := []int{3, 10, 14, 21}; !slices.Equal(got, want) {
		t.Errorf("positions %v, want %v", got, want)
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct{ pattern, want string }{
		{"(?=x)", "RE2 (Go's regexp) has no lookaround"},
		{"a(?!b)", "no lookaround"},
		{"(?<=a)b", "no lookaround"},
		{`(a)\1`, "no backreferences"},
		{"a[", "missing closing ]"},
	}
	for _, c := range cases {
		_, err := Compile(c.pattern, MatchOptions{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "error parsing regexp") {
			t.Errorf("Compile(%q) error = %v; want the parse error and %q", c.pattern, err, c.want)
		}
	}
	if _, err := Compile("(?=x)", MatchOptions{Literal: true}); err != nil {
		t.Errorf("a literal pattern cannot be invalid: %v", err)
	}
}

func TestLowerASCII(t *testing.T) {
	var all []byte
	for i := range 256 {
		all = append(all, byte(i))
	}
	for _, src := range [][]byte{all, []byte("Hello, WORLD! ÀÉ @[`{ AZaz 0123456789"), bytes.Repeat([]byte("ZaA@["), 7)} {
		for off := range 9 {
			in := src[off:]
			got := make([]byte, len(in))
			lowerASCII(got, in)
			for i, c := range in {
				if got[i] != lowerTable[c] {
					t.Fatalf("lowerASCII(%q)[%d] = %q, want %q", in, i, got[i], lowerTable[c])
				}
			}
		}
	}
}
