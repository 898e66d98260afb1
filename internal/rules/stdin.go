package rules

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// WholeCommands is why text written to a shell reading a pipe is not
// whole commands, or "": the shell would hold what it has not ended and
// join it to the next write, which is decided on its own (r, then m -f
// x, runs rm). Text is whole when it parses and ends where a command may
// start: after a newline, or at the end of the input (ends) when the
// shell runs what it holds. A line continued with a backslash, an open
// quote, here-document, list or compound command is not.
func WholeCommands(text string, ends bool) string {
	if text == "" {
		return ""
	}
	if !ends && !strings.HasSuffix(text, "\n") {
		return "it does not end with a newline, so the shell waits for the rest of the line"
	}
	if err := Limit(text); err != nil {
		return err.Error()
	}
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	if _, err := p.Parse(strings.NewReader(text), ""); err != nil {
		return fmt.Sprintf("it does not parse as whole commands (%v), so the shell waits for the rest", err)
	}
	if ends {
		return ""
	}
	// A command written after it must start where it ends: else the
	// shell reads what follows as part of what it holds (a line ended
	// by a backslash, an unterminated here-document).
	f, err := p.Parse(strings.NewReader(text+":\n"), "")
	if err != nil || len(f.Stmts) == 0 || f.Stmts[len(f.Stmts)-1].Pos().Offset() != uint(len(text)) {
		return "its last line is continued (a backslash before the newline), so the shell joins it to the next line"
	}
	return ""
}
