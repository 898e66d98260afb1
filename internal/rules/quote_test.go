package rules

import (
	"fmt"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// quoteCases are words a part's command may show: every ASCII character
// alone and after a letter, reserved words, and words that need $'…'.
func quoteCases() []string {
	cs := []string{"", "if", "then", "!", "{", "}", "[[", "]]", "function", "coproc", "time", "in", "*.o", "a b", "it's",
		"x=1", "~/x", "\x00", "a\nb", "tab\there", "é", "\xff", "-rf", "--x=y", "{}", "a,b", "%s", "@", "^total"}
	for c := 0; c < 128; c++ {
		cs = append(cs, string(rune(c)), "a"+string(rune(c)), string(rune(c))+"z")
	}
	return cs
}

// TestWriteQuoted: a part's words are quoted as syntax.Quote quotes
// them, so the commands shown (and approved for a session) read as
// they did.
func TestWriteQuoted(t *testing.T) {
	for _, s := range quoteCases() {
		checkWriteQuoted(t, s)
	}
}

func FuzzWriteQuoted(f *testing.F) {
	for _, s := range quoteCases() {
		f.Add(s)
	}
	f.Fuzz(checkWriteQuoted)
}

func checkWriteQuoted(t *testing.T, s string) {
	want, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		want = fmt.Sprintf("%q", s)
	}
	var b strings.Builder
	writeQuoted(&b, s)
	if b.String() != want {
		t.Errorf("writeQuoted(%q) = %q, syntax.Quote %q", s, b.String(), want)
	}
}
