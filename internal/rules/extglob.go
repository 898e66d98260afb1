package rules

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// extGlobRisk is the reason an extended glob is not fully known, or "".
// The parser keeps the inside of @(…), !(…), *(…), +(…) and ?(…) as
// text, so the walk meets no command in it; bash expands it as a word,
// running any command or process substitution and evaluating any
// parameter expansion (an arithmetic subscript among them) it holds.
func extGlobRisk(g *syntax.ExtGlob) string {
	if g.Pattern == nil {
		return ""
	}
	p := g.Pattern.Value
	if strings.ContainsAny(p, "$`") || strings.Contains(p, "<(") || strings.Contains(p, ">(") {
		return fmt.Sprintf("the extended glob %s%s) holds an expansion or substitution, which runs when bash matches the pattern and is not checked", g.Op, p)
	}
	return ""
}
