package rules

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParsePattern(t *testing.T) {
	for _, c := range []struct {
		in     string
		words  [][]string
		prefix bool
	}{
		{"git status", [][]string{{"git"}, {"status"}}, false},
		{"npm test *", [][]string{{"npm"}, {"test"}}, true},
		{"npm test:*", [][]string{{"npm"}, {"test"}}, true},
		{"npm:*", [][]string{{"npm"}}, true},
		{"  ls  -la  ", [][]string{{"ls"}, {"-la"}}, false},
		{"git commit -m 'a b'", [][]string{{"git"}, {"commit"}, {"-m"}, {"a b"}}, false},
		{`echo "x y" *`, [][]string{{"echo"}, {"x y"}}, true},
		{`echo '*'`, [][]string{{"echo"}, {"*"}}, false},
		{`rm -rf \*`, [][]string{{"rm"}, {"-rf"}, {"*"}}, false},
		{"curl http://site.com/:*", [][]string{{"curl"}, {"http://site.com/"}}, true},
		{"*", nil, true},
		{"git push*", [][]string{{"git"}, {"push"}}, true},
		{"ls*", [][]string{{"ls"}}, true},
		{":*", nil, true},
	} {
		p, err := ParsePattern(c.in)
		if err != nil {
			t.Errorf("ParsePattern(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(p.Words, c.words) || p.Prefix != c.prefix {
			t.Errorf("ParsePattern(%q) = %v prefix %v, want %v prefix %v", c.in, p.Words, p.Prefix, c.words, c.prefix)
		}
	}
}

func TestParsePatternErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty"},
		{"   ", "empty"},
		{"ls [ab]", "glob or brace"},
		{"echo {a,b}", "glob or brace"},
		{"git status; rm x", "2 commands"},
		{"git status && rm x", "not a plain command"},
		{"ls | grep x", "not a plain command"},
		{"ls > out", "not a plain command"},
		{"if true; then ls; fi", "does not read as one command"},
		{"FOO=1 npm test", "assignment"},
		{"echo $HOME", "expansion"},
		{"echo $(date)", "expansion"},
		{"echo 'unterminated", "does not read as one command"},
		{"echo 'a'*", "glued to a quote"},
	} {
		_, err := ParsePattern(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePattern(%q) error = %v, want one saying %q", c.in, err, c.want)
		}
	}
}

func TestPatternString(t *testing.T) {
	for _, in := range []string{"git status", "npm test *", "git commit -m 'a b'", "*", "git push*"} {
		p, err := ParsePattern(in)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParsePattern(p.String())
		if err != nil || !reflect.DeepEqual(back, p) {
			t.Errorf("%q: String() = %q reads back as %v, %v", in, p.String(), back, err)
		}
	}
	alt := Pattern{Words: [][]string{{"git"}, {"push", "fetch"}}, Prefix: true}
	if got := alt.String(); got != "git [push|fetch] *" {
		t.Errorf("alternatives: %q", got)
	}
}

func TestMatchWords(t *testing.T) {
	unknown := word{Text: "$X", Split: true}
	quoted := word{Text: `"$X"`}
	git := word{Text: "git", Known: true, Base: "git", BaseKnown: true}
	st := word{Text: "status", Known: true}
	for _, c := range []struct {
		pat   string
		words []word
		want  match
	}{
		{"git status", []word{git, st}, sureMatch},
		{"git status", []word{git, st, st}, noMatch},
		{"git status", []word{git}, noMatch},
		{"git status", []word{git, unknown}, maybeMatch},
		{"git status", []word{git, quoted}, maybeMatch},
		{"git status", []word{git, st, unknown}, maybeMatch},
		{"git status", []word{git, st, quoted}, noMatch},
		{"git status *", []word{git, st, quoted}, sureMatch},
		{"git *", []word{git, unknown}, sureMatch},
		{"git push *", []word{git, quoted, st}, maybeMatch},
		{"git push *", []word{git, st, quoted}, noMatch},
		{"git push *", []word{git, unknown, st}, maybeMatch},
		{"npm test *", []word{{Text: "npm", Known: true, Base: "npm", BaseKnown: true}, {Text: "testing", Known: true}}, noMatch},
		{"*", []word{git}, sureMatch},
	} {
		p, err := ParsePattern(c.pat)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.matchWords(c.words, Allow); got != c.want {
			t.Errorf("%q against %v = %v, want %v", c.pat, c.words, got, c.want)
		}
	}
}

// A pattern naming a program by path allows only that path, but denies
// the program wherever it lives.
func TestMatchProgramPath(t *testing.T) {
	p, err := ParsePattern("/bin/rm *")
	if err != nil {
		t.Fatal(err)
	}
	rm := word{Text: "rm", Known: true, Base: "rm", BaseKnown: true}
	binrm := word{Text: "/bin/rm", Known: true, Base: "rm", BaseKnown: true}
	if p.matchWords([]word{rm}, Allow) != noMatch || p.matchWords([]word{binrm}, Allow) != sureMatch {
		t.Error("an allow rule by path must match that path only")
	}
	if p.matchWords([]word{rm}, Deny) != sureMatch {
		t.Error("a deny rule by path must match the program by its base name")
	}
}

// A * glued to a pattern's end opens its last word, as Claude Code
// reads Bash(git push*).
func TestOpenLastWord(t *testing.T) {
	s := &Set{Default: Allow, Rules: []Rule{
		{Text: "git push*", Decision: Ask},
		{Text: "ls*", Decision: Deny},
	}}
	for i := range s.Rules {
		p, err := ParsePattern(s.Rules[i].Text)
		if err != nil {
			t.Fatal(err)
		}
		if !p.OpenLast {
			t.Fatalf("%q: OpenLast not set", s.Rules[i].Text)
		}
		s.Rules[i].Pattern = p
	}
	for in, want := range map[string]Decision{
		"git push":             Ask,
		"git push origin main": Ask,
		"git pushed":           Ask,
		"git -C . push-all":    Ask,
		"git pull":             Allow,
		"git $X":               Ask,
		"lsof -i":              Deny,
		"/bin/ls -la":          Deny,
		"LS":                   Deny,
		"cat x":                Allow,
	} {
		if v := s.Check(in); v.Decision != want {
			t.Errorf("%q = %v, want %v;%s", in, v.Decision, want, partsText(v))
		}
	}
}

// programKeyNames are program words whose case, folding, paths and
// bytes could make a rule's first word match a name that does not
// start with the same letter.
var programKeyNames = []string{"rm", "RM", "Rm", "rmdir", "r", "R", "sh", "SH", "ſh", "\u212aill", "kill", "KILL", "İnstall", "install",
	"/bin/rm", "./rm", "/", ".", "", "git", "Git", "é", "É", "ls", "lsof", "-rm", "1", "_x"}

// TestProgramKey: a rule skipped by its program key never matches the
// part it was skipped for, whatever the rule's decision, for every pair
// of a pattern word (exact, prefix, open, a path) and a program word.
func TestProgramKey(t *testing.T) {
	for _, pw := range programKeyNames {
		for _, name := range programKeyNames {
			checkProgramKey(t, pw, name)
		}
	}
}

func FuzzProgramKey(f *testing.F) {
	for _, a := range programKeyNames {
		f.Add(a, a)
	}
	f.Add("ſh", "sh")
	f.Add("\u212a", "k")
	f.Fuzz(checkProgramKey)
}

func checkProgramKey(t *testing.T, pw, name string) {
	words := []word{
		{Text: name, Known: true, Base: name[strings.LastIndexByte(name, '/')+1:], BaseKnown: true},
		{Text: "x", Known: true},
	}
	for _, p := range []Pattern{
		{Words: [][]string{{pw}}},
		{Words: [][]string{{pw}}, Prefix: true},
		{Words: [][]string{{pw}}, Prefix: true, OpenLast: true},
		{Words: [][]string{{pw, "other"}}, Prefix: true},
		{Words: [][]string{{"/usr/bin/" + pw}}, Prefix: true},
		{Words: [][]string{{"/usr/bin/" + pw}}, Prefix: true, OpenLast: true},
	} {
		for _, d := range []Decision{Allow, Ask, Deny} {
			if p.matchWords(words, d) != noMatch && !mayName(p.programKey(d), wordKey(words)) {
				t.Errorf("the %s rule %v matches %q but its key %q skips it (word key %q)", d, p.Words, name, p.programKey(d), wordKey(words))
			}
		}
	}
}

// globMatch agrees with a regular expression made of the same
// segments, on any subject.
func FuzzGlobMatch(f *testing.F) {
	f.Add("git * main", "git push origin main")
	f.Add("* --version", "node --version")
	f.Add("a*b*c", "aXbYbc")
	f.Add("**", "")
	f.Fuzz(func(t *testing.T, pattern, subject string) {
		// The regexp reads runes; the glob bytes: they agree on text.
		if len(pattern) > 64 || len(subject) > 256 || !utf8.ValidString(pattern) || !utf8.ValidString(subject) {
			return
		}
		segs := strings.Split(pattern, "*")
		quoted := make([]string, len(segs))
		for i, s := range segs {
			quoted[i] = regexp.QuoteMeta(s)
		}
		re := regexp.MustCompile(`(?s)\A` + strings.Join(quoted, ".*") + `\z`)
		if got, want := globMatch(segs, subject), re.MatchString(subject); got != want {
			t.Fatalf("globMatch(%q, %q) = %v, the regexp says %v", segs, subject, got, want)
		}
	})
}
