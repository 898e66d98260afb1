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
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '\\':
			i++
			if i >= len(s) {
				return nil, errors.New("a backslash ends the example")
			}
			inWord = true
			if s[i] != '\n' {
				w.WriteByte(s[i])
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("a single quote is not closed")
			}
			w.WriteString(s[i+1 : i+1+end])
			i += 1 + end
			inWord = true
		case c == '"':
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
				return nil, errors.New("a double quote is not closed")
			}
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
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
