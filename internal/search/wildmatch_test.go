package search

import (
	"strings"
	"testing"
	"time"
)

// wildmatchCases is git's t/t3070-wildmatch.sh, the "wildmatch" column
// (case-sensitive, WM_PATHNAME): text, pattern, whether it matches.
var wildmatchCases = []struct {
	text, pattern string
	match         bool
}{
	{"foo", "foo", true},
	{"foo", "bar", false},
	{"", "", true},
	{"foo", "???", true},
	{"foo", "??", false},
	{"foo", "*", true},
	{"foo", "f*", true},
	{"foo", "*f", false},
	{"foo", "*foo*", true},
	{"foobar", "*ob*a*r*", true},
	{"aaaaaaabababab", "*ab", true},
	{"foo*", "foo\\*", true},
	{"foobar", "foo\\*bar", false},
	{"f\\oo", "f\\\\oo", true},
	{"ball", "*[al]?", true},
	{"ten", "[ten]", false},
	{"ten", "**[!te]", true},
	{"ten", "**[!ten]", false},
	{"ten", "t[a-g]n", true},
	{"ten", "t[!a-g]n", false},
	{"ton", "t[!a-g]n", true},
	{"ton", "t[^a-g]n", true},
	{"a]b", "a[]]b", true},
	{"a-b", "a[]-]b", true},
	{"a]b", "a[]-]b", true},
	{"aab", "a[]-]b", false},
	{"aab", "a[]a-]b", true},
	{"]", "]", true},
	{"foo/baz/bar", "foo*bar", false},
	{"foo/baz/bar", "foo**bar", false},
	{"foobazbar", "foo**bar", true},
	{"foo/baz/bar", "foo/**/bar", true},
	{"foo/baz/bar", "foo/**/**/bar", true},
	{"foo/b/a/z/bar", "foo/**/bar", true},
	{"foo/b/a/z/bar", "foo/**/**/bar", true},
	{"foo/bar", "foo/**/bar", true},
	{"foo/bar", "foo/**/**/bar", true},
	{"foo/bar", "foo?bar", false},
	{"foo/bar", "foo[/]bar", false},
	{"foo/bar", "foo[^a-z]bar", false},
	{"foo/bar", "f[^eiu][^eiu][^eiu][^eiu][^eiu]r", false},
	{"foo-bar", "f[^eiu][^eiu][^eiu][^eiu][^eiu]r", true},
	{"foo", "**/foo", true},
	{"XXX/foo", "**/foo", true},
	{"bar/baz/foo", "**/foo", true},
	{"bar/baz/foo", "*/foo", false},
	{"foo/bar/baz", "**/bar*", false},
	{"deep/foo/bar/baz", "**/bar/*", true},
	{"deep/foo/bar/baz/", "**/bar/*", false},
	{"deep/foo/bar/baz/", "**/bar/**", true},
	{"deep/foo/bar", "**/bar/*", false},
	{"deep/foo/bar/", "**/bar/**", true},
	{"foo/bar/baz", "**/bar**", false},
	{"foo/bar/baz/x", "*/bar/**", true},
	{"deep/foo/bar/baz/x", "*/bar/**", false},
	{"deep/foo/bar/baz/x", "**/bar/*/*", true},
	{"acrt", "a[c-c]st", false},
	{"acrt", "a[c-c]rt", true},
	{"]", "[!]-]", false},
	{"a", "[!]-]", true},
	{"", "\\", false},
	{"\\", "\\", false},
	{"XXX/\\", "*/\\", false},
	{"XXX/\\", "*/\\\\", true},
	{"foo", "foo", true},
	{"@foo", "@foo", true},
	{"foo", "@foo", false},
	{"[ab]", "\\[ab]", true},
	{"[ab]", "[[]ab]", true},
	{"[ab]", "[[:]ab]", true},
	{"[ab]", "[[::]ab]", false},
	{"[ab]", "[[:digit]ab]", true},
	{"[ab]", "[\\[:]ab]", true},
	{"?a?b", "\\??\\?b", true},
	{"abc", "\\a\\b\\c", true},
	{"foo", "", false},
	{"foo/bar/baz/to", "**/t[o]", true},
	{"a1B", "[[:alpha:]][[:digit:]][[:upper:]]", true},
	{"a", "[[:digit:][:upper:][:space:]]", false},
	{"A", "[[:digit:][:upper:][:space:]]", true},
	{"1", "[[:digit:][:upper:][:space:]]", true},
	{"1", "[[:digit:][:upper:][:spaci:]]", false},
	{" ", "[[:digit:][:upper:][:space:]]", true},
	{".", "[[:digit:][:upper:][:space:]]", false},
	{".", "[[:digit:][:punct:][:space:]]", true},
	{"5", "[[:xdigit:]]", true},
	{"f", "[[:xdigit:]]", true},
	{"D", "[[:xdigit:]]", true},
	{"_", "[[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:graph:][:lower:][:print:][:punct:][:space:][:upper:][:xdigit:]]", true},
	{".", "[^[:alnum:][:alpha:][:blank:][:cntrl:][:digit:][:lower:][:space:][:upper:][:xdigit:]]", true},
	{"5", "[a-c[:digit:]x-z]", true},
	{"b", "[a-c[:digit:]x-z]", true},
	{"y", "[a-c[:digit:]x-z]", true},
	{"q", "[a-c[:digit:]x-z]", false},
	{"]", "[\\\\-^]", true},
	{"[", "[\\\\-^]", false},
	{"-", "[\\-_]", true},
	{"]", "[\\]]", true},
	{"\\]", "[\\]]", false},
	{"\\", "[\\]]", false},
	{"ab", "a[]b", false},
	{"a[]b", "a[]b", false},
	{"ab[", "ab[", false},
	{"ab", "[!", false},
	{"ab", "[-", false},
	{"-", "[-]", true},
	{"-", "[a-", false},
	{"-", "[!a-", false},
	{"-", "[--A]", true},
	{"5", "[--A]", true},
	{" ", "[ --]", true},
	{"$", "[ --]", true},
	{"-", "[ --]", true},
	{"0", "[ --]", false},
	{"-", "[---]", true},
	{"-", "[------]", true},
	{"j", "[a-e-n]", false},
	{"-", "[a-e-n]", true},
	{"a", "[!------]", true},
	{"[", "[]-a]", false},
	{"^", "[]-a]", true},
	{"^", "[!]-a]", false},
	{"[", "[!]-a]", true},
	{"^", "[a^bc]", true},
	{"-b]", "[a-]b]", true},
	{"\\", "[\\]", false},
	{"\\", "[\\\\]", true},
	{"\\", "[!\\\\]", false},
	{"G", "[A-\\\\]", true},
	{"aaabbb", "b*a", false},
	{"aabcaa", "*ba*", false},
	{",", "[,]", true},
	{",", "[\\\\,]", true},
	{"\\", "[\\\\,]", true},
	{"-", "[,-.]", true},
	{"+", "[,-.]", false},
	{"-.]", "[,-.]", false},
	{"2", "[\\1-\\3]", true},
	{"3", "[\\1-\\3]", true},
	{"4", "[\\1-\\3]", false},
	{"\\", "[[-\\]]", true},
	{"[", "[[-\\]]", true},
	{"]", "[[-\\]]", true},
	{"-", "[[-\\]]", false},
	{"-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", "-*-*-*-*-*-*-12-*-*-*-m-*-*-*", true},
	{"-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", "-*-*-*-*-*-*-12-*-*-*-m-*-*-*", false},
	{"-adobe-courier-bold-o-normal--12-120-75-75-/-70-iso8859-1", "-*-*-*-*-*-*-12-*-*-*-m-*-*-*", false},
	{"XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", "XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", true},
	{"XXX/adobe/courier/bold/o/normal//12/120/75/75/X/70/iso8859/1", "XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", false},
	{"abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", "**/*a*b*g*n*t", true},
	{"abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", "**/*a*b*g*n*t", false},
	{"foo", "*/*/*", false},
	{"foo/bar", "*/*/*", false},
	{"foo/bba/arr", "*/*/*", true},
	{"foo/bb/aa/rr", "*/*/*", false},
	{"foo/bb/aa/rr", "**/**/**", true},
	{"abcXdefXghi", "*X*i", true},
	{"ab/cXd/efXg/hi", "*X*i", false},
	{"ab/cXd/efXg/hi", "*/*X*/*/*i", true},
	{"ab/cXd/efXg/hi", "**/*X*/**/*i", true},
	{"foo", "fo", false},
	{"foo/bar", "foo/bar", true},
	{"foo/bar", "foo/*", true},
	{"foo/bba/arr", "foo/*", false},
	{"foo/bba/arr", "foo/**", true},
	{"foo/bba/arr", "foo*", false},
	{"foo/bba/arr", "foo**", false},
	{"foo/bba/arr", "foo/*arr", false},
	{"foo/bba/arr", "foo/**arr", false},
	{"foo/bba/arr", "foo/*z", false},
	{"foo/bba/arr", "foo/**z", false},
	{"foo/bar", "foo?bar", false},
	{"foo/bar", "foo[/]bar", false},
	{"foo/bar", "foo[^a-z]bar", false},
	{"ab/cXd/efXg/hi", "*Xg*i", false},
	{"a", "[A-Z]", false},
	{"A", "[A-Z]", true},
	{"A", "[a-z]", false},
	{"a", "[a-z]", true},
	{"a", "[[:upper:]]", false},
	{"A", "[[:upper:]]", true},
	{"A", "[[:lower:]]", false},
	{"a", "[[:lower:]]", true},
	{"A", "[B-Za]", false},
	{"a", "[B-Za]", true},
	{"A", "[B-a]", false},
	{"a", "[B-a]", true},
	{"z", "[Z-y]", false},
	{"Z", "[Z-y]", true},
}

func TestWildmatchGitSuite(t *testing.T) {
	for _, c := range wildmatchCases {
		if got := wildmatch(c.pattern, c.text); got != c.match {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", c.pattern, c.text, got, c.match)
		}
	}
}

// FuzzWildmatch checks wildmatch against the verbatim port of git's
// wildmatch on inputs short enough for git's exponential cases, and that
// long inputs end.
func FuzzWildmatch(f *testing.F) {
	for _, c := range wildmatchCases {
		f.Add(c.pattern, c.text)
	}
	f.Add("*a*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac")
	f.Add("**/*a*/**/*b", "x/a/a/a/a/a/a/a/a/a/a/a/c")
	f.Fuzz(func(t *testing.T, pat, text string) {
		if len(pat) > 64 || len(text) > 256 {
			return
		}
		got := wildmatch(pat, text)
		if len(pat) <= 12 && len(text) <= 24 {
			if want := gitDowild(pat, 0, text, 0) == wmMatch; got != want {
				t.Fatalf("wildmatch(%q, %q) = %v, git's says %v", pat, text, got, want)
			}
		}
	})
}

func TestWildmatchNotExponential(t *testing.T) {
	// With git's own code this takes minutes; each must be instant.
	text := strings.Repeat("a", 200) + "c"
	for _, pat := range []string{"*a*a*a*a*a*a*a*a*a*a*b", "**a**a**a**a**a**a**a**b", "*/*a*a*a*a*a*a*b"} {
		done := make(chan bool)
		go func() { done <- wildmatch(pat, text) }()
		select {
		case m := <-done:
			if m {
				t.Errorf("%q matches %q", pat, text)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("wildmatch(%q, …) does not end", pat)
		}
	}
}
