// Package visible writes text an agent or a command wrote so that the
// person who approves it reads what is there: a character that would not
// show as itself is written as its code.
//
// A terminal or a browser acts on some characters instead of showing
// them: a control (an escape sequence that moves the cursor or clears a
// line, a carriage return that overwrites what came before), a
// bidirectional override or isolate that shows text in another order
// than it runs ("Trojan Source"), a zero-width character that hides a
// difference between two names. In a question about what may run, each
// would let the asker show one command and run another.
package visible

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with every character that would not show as itself
// written as <U+XXXX> (a byte that is not UTF-8 as <0xNN>): the C0 and C1
// controls but newline and tab, the format characters (bidirectional
// controls, zero-width characters, the byte order mark…), the line and
// paragraph separators, and the other characters that show as nothing
// (the Hangul fillers, the combining grapheme joiner, the variation
// selectors). s is returned as it is when it has none.
func String(s string) string {
	i := hidden(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "<0x%02X>", s[i])
		case shows(r):
			b.WriteString(s[i : i+n])
		default:
			fmt.Fprintf(&b, "<U+%04X>", r)
		}
		i += n
	}
	return b.String()
}

// hidden is the index of the first character of s that String writes as
// its code, -1 when none.
func hidden(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || !shows(r) {
			return i
		}
		i += n
	}
	return -1
}

// shows reports whether r shows as itself.
func shows(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return true
	case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == '\u2028', r == '\u2029',
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.Variation_Selector, r):
		return false
	}
	return true
}

// Indented is String(s) with each line after the first indented by
// indent: in a message of lines, a text of several lines cannot pass for
// the message's own lines.
func Indented(s, indent string) string {
	return strings.ReplaceAll(String(s), "\n", "\n"+indent)
}
