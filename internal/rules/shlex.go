package rules

import (
	"errors"
	"strings"
)

// shlexSplit splits a string into words as Codex splits the string
// examples of its rules (the shlex rules of a POSIX shell, without
// expansion): blanks separate words, single quotes keep everything,
// double quotes keep all but a backslash before $ ` " \ or a newline, a
// backslash outside quotes keeps the next character (and drops a
// newline), and # at the start of a word comments out the rest of its
// line. An open quote or a trailing backslash is an error.
func shlexSplit(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		var err error
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			continue
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '\\':
			i, err = shlexEscape(s, i, &w)
		case c == '\'':
			i, err = shlexSingle(s, i, &w)
		case c == '"':
			i, err = shlexDouble(s, i, &w)
		default:
			w.WriteByte(c)
		}
		if err != nil {
			return nil, err
		}
		inWord = true
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// shlexEscape adds to w the character the backslash at s[i] keeps (none
// for a newline), and returns its index.
func shlexEscape(s string, i int, w *strings.Builder) (int, error) {
	i++
	if i >= len(s) {
		return i, errors.New("a backslash ends the example")
	}
	if s[i] != '\n' {
		w.WriteByte(s[i])
	}
	return i, nil
}

// shlexSingle adds to w the text of the single-quoted string opening at
// s[i], and returns the index of its closing quote.
func shlexSingle(s string, i int, w *strings.Builder) (int, error) {
	end := strings.IndexByte(s[i+1:], '\'')
	if end < 0 {
		return i, errors.New("a single quote is not closed")
	}
	w.WriteString(s[i+1 : i+1+end])
	return i + 1 + end, nil
}

// shlexDouble adds to w the text of the double-quoted string opening at
// s[i], a backslash dropped before $ ` " \ and a newline, and returns
// the index of its closing quote.
func shlexDouble(s string, i int, w *strings.Builder) (int, error) {
	i++
	for ; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		w.WriteByte(s[i])
	}
	if i >= len(s) {
		return i, errors.New("a double quote is not closed")
	}
	return i, nil
}

// shlexJoin writes words back as one string a shell would split into
// them, quoting a word only where it needs it.
func shlexJoin(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`#;&|<>(){}*?[]~!") {
			b.WriteString(w)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(w, "'", `'"'"'`))
		b.WriteByte('\'')
	}
	return b.String()
}
