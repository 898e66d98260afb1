package factcorpus

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// A Score is what one text gives the model of a case: the facts it
// holds of the case's total, the characters (runes) it spends, and the
// facts it misses by name.
type Score struct {
	Kept, Total int
	Chars       int
	Missed      []string
}

func (s Score) String() string {
	return fmt.Sprintf("%d/%d, %s", s.Kept, s.Total, Thousands(s.Chars))
}

// Add sums o into s: a column's total.
func (s *Score) Add(o Score) {
	s.Kept += o.Kept
	s.Total += o.Total
	s.Chars += o.Chars
}

// Count scores text against the case's facts. exitImplied says the text
// tells the model the command succeeded without printing an exit code
// (Claude Code's Bash shows a success as a result that is not an error):
// the exit-code fact then counts as kept.
func (c Case) Count(text string, exitImplied bool) Score {
	s := Score{Total: len(c.Facts), Chars: utf8.RuneCountInString(text)}
	for _, f := range c.Facts {
		if f.Re.MatchString(text) || exitImplied && strings.HasPrefix(f.What, "exit code") {
			s.Kept++
		} else {
			s.Missed = append(s.Missed, f.What)
		}
	}
	return s
}

// Thousands writes n with a comma between each group of three digits.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
