package rules

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// ParsePattern reads the inner syntax of a Claude Code Bash(…) rule:
//
//	git status      exactly these two words
//	npm test *      "npm test" alone or followed by any words
//	npm test:*      the same, in Claude Code's older spelling
//	git push*       git, a word beginning with push, then any words
//	git * main      git, any run of characters, then the word main
//	* --version     any command whose last word is --version
//	*               every command
//
// Words are split and unquoted as the shell does ("git commit -m 'a b'"
// is four words). A prefix ends at a word boundary: "npm test *" does not
// match "npm testing"; a * glued to the end opens the last word instead.
// A * anywhere else is Claude Code's: any run of characters, spaces
// included, matched on the command's words joined by single spaces
// (Glob). A reserved word is a word like any other ("time:*").
func ParsePattern(s string) (Pattern, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return Pattern{}, fmt.Errorf("pattern %q is empty: write \"*\" for every command", s)
	}
	if t == "*" || t == ":*" {
		return Pattern{Prefix: true}, nil
	}
	t, prefix, open := patternEnd(t)
	if t == "" || t == "*" {
		return Pattern{Prefix: true}, nil
	}
	if assignmentStart(t) {
		return Pattern{}, fmt.Errorf("pattern %q starts with an assignment: leading VAR=value is skipped before matching, so leave it out of the pattern", s)
	}
	args, src, err := patternWords(s, t)
	if err != nil {
		return Pattern{}, err
	}
	glob, err := patternGlobbed(s, args, src)
	if err != nil {
		return Pattern{}, err
	}
	if glob {
		if open {
			return Pattern{}, fmt.Errorf("pattern %q has a * glued to its end and another before it", s)
		}
		return globPattern(s, args, prefix), nil
	}
	p := Pattern{Prefix: prefix, OpenLast: open}
	for _, w := range args {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && len(w.Parts) == 1 && (hasGlob(lit.Value) || hasBrace(lit.Value)) {
			return Pattern{}, fmt.Errorf("pattern %q has a glob or brace character in %q: quote it to mean the characters", s, lit.Value)
		}
		p.Words = append(p.Words, []string{literalText(w)})
	}
	if open && strings.ContainsAny(t[len(t)-1:], " \t'\"") {
		return Pattern{}, fmt.Errorf("pattern %q has a * glued to a quote: write the last word unquoted, or \" *\" for a prefix of whole words", s)
	}
	return p, nil
}

// patternEnd reads how the trimmed pattern t ends: with :* or a
// separate * it is a prefix of whole words, and a * glued to its last
// word (its only *) opens that word. It returns t without that end.
func patternEnd(t string) (rest string, prefix, open bool) {
	switch {
	case strings.HasSuffix(t, ":*"):
		return strings.TrimSpace(t[:len(t)-2]), true, false
	case strings.HasSuffix(t, " *") || strings.HasSuffix(t, "\t*"):
		return strings.TrimSpace(t[:len(t)-1]), true, false
	case strings.HasSuffix(t, "*") && !strings.HasSuffix(t, "\\*") && strings.Count(t, "*") == 1:
		// "git push*": the last word is open, as Claude Code reads it.
		return t[:len(t)-1], true, true
	}
	return t, false, false
}

// patternWords parses t, the pattern s without its end, as the words of
// one plain command, and returns them with the source they were parsed
// from.
func patternWords(s, t string) ([]*syntax.Word, string, error) {
	// The words are read after a stand-in command name, so that a
	// reserved word ("time", "if") is read as the word it is here.
	src := "_ " + t
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, "", fmt.Errorf("pattern %q does not read as one command: %v", s, err)
	}
	if len(f.Stmts) != 1 {
		return nil, "", fmt.Errorf("pattern %q holds %d commands: a pattern is the words of one command (each part of a compound command is matched on its own)", s, len(f.Stmts))
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) < 2 {
		return nil, "", fmt.Errorf("pattern %q is not a plain command: a pattern is words only, without operators, redirections, pipes or reserved words", s)
	}
	return call.Args[1:], src, nil
}

// patternGlobbed reports whether the words of the pattern s hold an
// unquoted *, which makes it a Glob; a word with an expansion is an
// error.
func patternGlobbed(s string, args []*syntax.Word, src string) (bool, error) {
	glob := false
	for _, w := range args {
		if !onlyLiteralParts(w) {
			return false, fmt.Errorf("pattern %q has an expansion in %q: a pattern is literal words", s, sourceOf(w, src))
		}
		for _, part := range w.Parts {
			if lit, ok := part.(*syntax.Lit); ok && unescapedStar(lit.Value) {
				glob = true
			}
		}
	}
	return glob, nil
}

// assignmentStart reports whether t starts with NAME=.
func assignmentStart(t string) bool {
	i := 0
	for i < len(t) && (t[i] == '_' || 'a' <= t[i] && t[i] <= 'z' || 'A' <= t[i] && t[i] <= 'Z' || i > 0 && '0' <= t[i] && t[i] <= '9') {
		i++
	}
	return i > 0 && i < len(t) && (t[i] == '=' || t[i] == '+' && i+1 < len(t) && t[i+1] == '=')
}

// unescapedStar reports whether an unquoted literal holds a * that no
// backslash escapes.
func unescapedStar(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '*':
			return true
		}
	}
	return false
}

// globPattern makes the Glob of words holding an unquoted *: the text of
// the words joined by single spaces, cut at each *. Only * is special,
// as in Claude Code; ?, [ and { are the characters they are.
func globPattern(text string, words []*syntax.Word, tail bool) Pattern {
	var segs []string
	var cur strings.Builder
	for i, w := range words {
		if i > 0 {
			cur.WriteByte(' ')
		}
		for _, part := range w.Parts {
			lit, ok := part.(*syntax.Lit)
			if !ok {
				cur.WriteString(literalText(&syntax.Word{Parts: []syntax.WordPart{part}}))
				continue
			}
			v := lit.Value
			for j := 0; j < len(v); j++ {
				switch {
				case v[j] == '\\' && j+1 < len(v):
					j++
					cur.WriteByte(v[j])
				case v[j] == '*':
					segs = append(segs, cur.String())
					cur.Reset()
				default:
					cur.WriteByte(v[j])
				}
			}
		}
	}
	segs = append(segs, cur.String())
	return Pattern{Glob: segs, GlobTail: tail, Prefix: tail, GlobText: strings.TrimSpace(text)}
}

// String writes the pattern back in the Bash(…) inner syntax, words
// quoted where the shell needs it; alternatives are shown as [a|b].
func (p Pattern) String() string {
	switch {
	case p.Exact != "":
		return p.Exact
	case p.Glob != nil:
		return p.GlobText
	}
	if len(p.Words) == 0 {
		if p.Prefix {
			return "*"
		}
		return ""
	}
	parts := make([]string, 0, len(p.Words)+1)
	for _, alts := range p.Words {
		q := make([]string, len(alts))
		for i, a := range alts {
			s, err := syntax.Quote(a, syntax.LangBash)
			if err != nil {
				s = fmt.Sprintf("%q", a)
			}
			q[i] = s
		}
		if len(q) == 1 {
			parts = append(parts, q[0])
		} else {
			parts = append(parts, "["+strings.Join(q, "|")+"]")
		}
	}
	if p.OpenLast {
		return strings.Join(parts, " ") + "*"
	}
	if p.Prefix {
		parts = append(parts, "*")
	}
	return strings.Join(parts, " ")
}

// A match is how a pattern meets a command's words: surely not, maybe
// (an expansion stands where the pattern needs a word, so the answer is
// known only when the command runs), or surely.
type match int

const (
	noMatch match = iota
	maybeMatch
	sureMatch
)

// matchWords matches p against a command's words; words[0] is the
// program. A first pattern word with a slash names one file: an allow
// rule then needs that very path, while a deny or ask rule matches the
// program by its base name, since /bin/rm and rm are the same program to
// a person who denies it.
func (p Pattern) matchWords(words []word, d Decision) match {
	switch {
	case p.Exact != "":
		return noMatch // matched on the whole input (Set.exact)
	case p.Glob != nil:
		return p.matchGlob(words, d)
	}
	if len(p.Words) == 0 {
		if p.Prefix {
			return sureMatch
		}
		return noMatch
	}
	res := sureMatch
	for i, alts := range p.Words {
		if i >= len(words) {
			return noMatch
		}
		w := words[i]
		open := p.OpenLast && i == len(p.Words)-1
		if i == 0 {
			m := matchFirstWord(alts, w, d, open)
			if m == noMatch {
				return noMatch
			}
			if m == maybeMatch {
				res = maybeMatch
			}
			continue
		}
		if !w.Known {
			if w.Split {
				// Words after it may shift: nothing more can be told.
				return maybeMatch
			}
			res = maybeMatch
			continue
		}
		if !contains(alts, w.Text) && !(open && hasPrefixOf(alts, w.Text)) {
			return noMatch
		}
	}
	if !p.Prefix && len(words) > len(p.Words) {
		return extraWords(words[len(p.Words):])
	}
	return res
}

// matchFirstWord matches the program, the command's first word, against
// the pattern's first word alts; open: that word is also the pattern's
// last and is open, so a program it begins matches too.
func matchFirstWord(alts []string, w word, d Decision, open bool) match {
	m := matchProgram(alts, w, d)
	if open && m == noMatch {
		m = matchProgramOpen(alts, w, d)
	}
	return m
}

// extraWords is how words past the end of a pattern that is not a prefix
// meet it: no match, unless each is an expansion that may come to
// nothing.
func extraWords(words []word) match {
	for _, w := range words {
		if !w.Split {
			return noMatch
		}
	}
	return maybeMatch
}

// programKey is the first byte, in lower case, of every program name
// the pattern's first word can match as a rule of decision d; 0 when it
// may match a name starting with any byte (no words, a path an allow
// rule compares whole, an empty or non-ASCII start, alternatives that
// differ). It lets a part skip the rules that cannot name its program
// without trying each: a name that starts with ASCII only matches a
// pattern word starting with the same letter, in either case, also by
// prefix or when case is ignored (the letters Unicode folds to ASCII
// ones are not ASCII themselves, so their rules have key 0).
func (p Pattern) programKey(d Decision) byte {
	if len(p.Words) == 0 || p.Glob != nil || p.Exact != "" {
		return 0
	}
	var key byte
	for _, a := range p.Words[0] {
		if strings.Contains(a, "/") {
			if d == Allow {
				return 0
			}
			a = path.Base(a)
		}
		if a == "" || a[0] >= utf8.RuneSelf {
			return 0
		}
		k := lowerASCII(a[0])
		if key != 0 && k != key {
			return 0
		}
		key = k
	}
	return key
}

// wordKey is the key of the program word ws[0] for programKey: 0 when every
// rule must be tried (the name is not known or starts with a byte that
// is not ASCII), anyKey when only rules of key 0 can match it.
func wordKey(ws []word) byte {
	if len(ws) == 0 {
		return 0
	}
	w := ws[0]
	switch {
	case !w.BaseKnown || w.Base != "" && w.Base[0] >= utf8.RuneSelf:
		return 0
	case w.Base == "":
		return anyKey
	}
	return lowerASCII(w.Base[0])
}

// anyKey is no program key: bytes with the high bit set are never one.
const anyKey = 0xff

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// mayName reports whether a rule of programKey rk can name a program
// of wordKey wk.
func mayName(rk, wk byte) bool { return rk == 0 || wk == 0 || rk == wk }

func matchProgram(alts []string, w word, d Decision) match {
	for _, a := range alts {
		if strings.Contains(a, "/") {
			if d == Allow {
				if w.Known && w.Text == a {
					return sureMatch
				}
				continue
			}
			a = path.Base(a)
		}
		if w.BaseKnown && (w.Base == a || d != Allow && strings.EqualFold(w.Base, a)) {
			// A deny or ask rule ignores case: on a file system that
			// ignores it (macOS), RM runs rm.
			return sureMatch
		}
	}
	if !w.BaseKnown {
		return maybeMatch
	}
	return noMatch
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// matchProgramOpen matches an open first word ("ls*") against the
// program's base name by prefix; a deny or ask rule ignores case.
func matchProgramOpen(alts []string, w word, d Decision) match {
	if !w.BaseKnown {
		return maybeMatch
	}
	for _, a := range alts {
		if strings.Contains(a, "/") && d == Allow {
			if w.Known && strings.HasPrefix(w.Text, a) {
				return sureMatch
			}
			continue
		}
		a = path.Base(a)
		if strings.HasPrefix(w.Base, a) || d != Allow && strings.HasPrefix(strings.ToLower(w.Base), strings.ToLower(a)) {
			return sureMatch
		}
	}
	return noMatch
}

func hasPrefixOf(alts []string, s string) bool {
	for _, a := range alts {
		if strings.HasPrefix(s, a) {
			return true
		}
	}
	return false
}

// matchGlob matches a Glob pattern on the command's words joined by
// single spaces, the program by its base name. A deny or ask rule
// ignores case, as matchProgram does. An allow rule never matches a
// command with a word whose value it cannot know, or one holding white
// space (Claude Code sees such a word quoted, and its * would not span
// the quotes); a deny or ask rule that might match such a command is a
// maybe.
func (p Pattern) matchGlob(words []word, d Decision) match {
	if len(words) == 0 {
		return noMatch
	}
	subject, unknown, ok := p.globSubject(words, d)
	if !ok {
		return noMatch
	}
	fold := d != Allow
	segs := p.Glob
	if fold {
		subject = strings.ToLower(subject)
		segs = make([]string, len(p.Glob))
		for i, s := range p.Glob {
			segs[i] = strings.ToLower(s)
		}
	}
	if unknown {
		if d == Allow {
			return noMatch
		}
		return globMaybe(segs, words[0], fold)
	}
	if globMatch(segs, subject) {
		return sureMatch
	}
	if p.GlobTail {
		tail := append(append([]string{}, segs[:len(segs)-1]...), segs[len(segs)-1]+" ", "")
		if globMatch(tail, subject) {
			return sureMatch
		}
	}
	return noMatch
}

// globSubject is what a Glob pattern of decision d is matched on: the
// command's words joined by single spaces, the program by its base name
// unless an allow rule's pattern starts with a path. A word whose value
// is not known is left out and sets unknown; ok is false when an allow
// rule meets a word holding white space.
func (p Pattern) globSubject(words []word, d Decision) (subject string, unknown, ok bool) {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		text := w.Text
		switch {
		case i == 0 && !w.BaseKnown, i > 0 && !w.Known:
			unknown = true
			continue
		case i == 0 && !(d == Allow && strings.Contains(p.Glob[0], "/")):
			text = w.Base
		}
		if d == Allow && strings.ContainsAny(text, " \t\n") {
			return "", false, false
		}
		b.WriteString(text)
	}
	return b.String(), unknown, true
}

// globMaybe is how a Glob pattern, its segments segs (in lower case when
// fold), meets a command some of whose words are known only when it
// runs: what they hold decides it, so a maybe, unless the program is
// known and the pattern's start cannot be it.
func globMaybe(segs []string, prog word, fold bool) match {
	if !prog.BaseKnown {
		return maybeMatch
	}
	name := prog.Base
	if fold {
		name = strings.ToLower(name)
	}
	head, _, spaced := strings.Cut(segs[0], " ")
	if spaced && name != head || !spaced && len(segs) > 1 && !strings.HasPrefix(name, head) {
		return noMatch
	}
	return maybeMatch
}

// globMatch matches s against segs, the literal texts between the *s of
// a pattern: the first is a prefix, the last a suffix, and the others
// occur in order between. Taking each middle text at its first place
// leaves the most room for the rest, so one pass decides it.
func globMatch(segs []string, s string) bool {
	if len(segs) == 1 {
		return s == segs[0]
	}
	first, last := segs[0], segs[len(segs)-1]
	if len(s) < len(first)+len(last) || !strings.HasPrefix(s, first) || !strings.HasSuffix(s, last) {
		return false
	}
	s = s[len(first) : len(s)-len(last)]
	for _, mid := range segs[1 : len(segs)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return true
}
