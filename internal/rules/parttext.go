package rules

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// display writes ws as the part's command: words joined by spaces,
// each quoted where the shell would need it.
func (c *checker) display(ws []word) string {
	if len(ws) == 1 && ws[0].Known && plainText(ws[0].Text) {
		return ws[0].Text
	}
	n := 0
	for i := range ws {
		// A space and, if it is quoted, two quotes: a buffer that
		// grows copies what it holds.
		n += len(ws[i].Text) + 3
	}
	b := c.text.start(n)
	for i := range ws {
		w := &ws[i]
		if i > 0 {
			b.WriteByte(' ')
		}
		if w.Known && !plainText(w.Text) {
			writeQuoted(b, w.Text)
		} else {
			b.WriteString(w.Text)
		}
	}
	return clip(c.text.cut())
}

// writeQuoted writes s quoted as syntax.Quote quotes it for bash, or
// with %q when it cannot be. Printable ASCII with no single quote, the
// common case, is written without the string Quote would make: as it
// is, or in single quotes when it holds a character the shell reads or
// is a reserved word.
func writeQuoted(b *strings.Builder, s string) {
	simple := s != ""
	for i := 0; i < len(s) && simple; i++ {
		simple = s[i] >= ' ' && s[i] <= '~' && s[i] != '\''
	}
	if simple {
		if strings.ContainsAny(s, quoteChars) || syntax.IsKeyword(s) {
			b.WriteByte('\'')
			b.WriteString(s)
			b.WriteByte('\'')
		} else {
			b.WriteString(s)
		}
		return
	}
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		q = fmt.Sprintf("%q", s)
	}
	b.WriteString(q)
}

// quoteChars are the characters syntax.Quote quotes a string for.
const quoteChars = ";\"'()$|&><`" + " \t\r\n" + "\\#{~*?[="

// textArena keeps many short strings in few buffers. A strings.Builder
// never changes a byte it has written, so a string cut from it stays
// valid while it grows; a full one is left to the strings cut from it.
type textArena struct {
	b    strings.Builder
	from int
	min  int
}

// start returns the builder to write a string of about n bytes to.
func (a *textArena) start(n int) *strings.Builder {
	if a.b.Cap()-a.b.Len() < n {
		a.b = strings.Builder{}
		a.b.Grow(max(n, a.min))
	}
	a.from = a.b.Len()
	return &a.b
}

// cut returns what was written since start.
func (a *textArena) cut() string { return a.b.String()[a.from:] }

// plainText reports whether s reads the same unquoted.
func plainText(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return true
}

// plainByte holds the bytes that read the same unquoted.
var plainByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:=+,@%^", byte(c)) >= 0
	}
	return t
}()
