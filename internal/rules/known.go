package rules

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What this file holds is the other half of "allow only what is fully
// known": the constructs whose effect on what runs the checker models
// completely are listed in docs/rules.md, and every construct that is
// not on that list, or is on it with an operand the checker cannot know,
// makes a part of its own that is ask whatever the rules say.
//
// Arithmetic is the sharpest case. Bash evaluates the *value* of a
// variable used in arithmetic as an expression of its own, and an array
// subscript in that expression runs the command substitutions it holds:
// with z='a[$(rm x)]', (( z )) runs rm. So an operand is known only when
// it is an integer literal, or a variable whose value this same input
// set to an integer literal or an arithmetic result before it, in a
// place that surely ran first (a statement at the top level of the
// input), and that nothing in the input may have set otherwise since.

// intAssigned records an assignment to name. value is true when the
// value surely is an integer (a literal, or an arithmetic result);
// dominating when the assignment surely ran before every later
// statement of the input. A value not known to be an integer makes the
// name unknown from here on; only a dominating one makes it known.
func (c *checker) intAssigned(name string, integer, dominating bool) {
	if i := strings.IndexByte(name, '['); i >= 0 {
		// An element of an array: the array's value ($a is a[0]) may
		// have changed.
		name = name[:i]
		integer = false
	}
	switch {
	case !integer:
		delete(c.ints, name)
	case dominating:
		if c.ints == nil {
			c.ints = map[string]bool{}
		}
		c.ints[name] = true
	}
}

// dominates reports whether a statement in cx surely runs, in the
// current shell, before every statement that follows it.
func dominates(cx ctx) bool { return cx.depth == 0 && !cx.nested }

// isIntLiteral reports whether s is an integer constant of bash's
// arithmetic: decimal, octal (0NN), hexadecimal (0xNN) or base#digits,
// with an optional sign and surrounding blanks.
func isIntLiteral(s string) bool {
	s = strings.TrimSpace(s)
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = strings.TrimSpace(s[1:])
	}
	if s == "" {
		return false
	}
	if b, digits, ok := strings.Cut(s, "#"); ok {
		if !allDigits(b) || digits == "" {
			return false
		}
		for i := 0; i < len(digits); i++ {
			ch := digits[i]
			if !(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch == '@' || ch == '_') {
				return false
			}
		}
		return true
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		for i := 2; i < len(s); i++ {
			if !isHex(s[i]) {
				return false
			}
		}
		return true
	}
	return allDigits(s)
}

// arithText is the reason a literal text used as an arithmetic operand
// is not known, or "": an integer literal, or the name of a variable
// known to hold one.
func (c *checker) arithText(s string) string {
	t := strings.TrimSpace(s)
	if isIntLiteral(t) {
		return ""
	}
	if syntax.ValidName(t) {
		return c.intVar(t)
	}
	return fmt.Sprintf("the text %q is evaluated as arithmetic: only an integer literal or a variable assigned one in this command is known", s)
}

// intVar is the reason the value of the variable name, used in
// arithmetic, is not known, or "".
func (c *checker) intVar(name string) string {
	switch name {
	case "RANDOM", "SRANDOM", "BASHPID", "PPID", "UID", "EUID", "LINENO":
		// Always numbers: bash computes the dynamic ones when read, and
		// the rest are read-only. Assigning any is ask (list a).
		return ""
	}
	if c.ints[name] {
		return ""
	}
	return fmt.Sprintf("the value of %s is evaluated as arithmetic and is not known to be an integer: bash runs command text held in an array subscript of such a value (assign it an integer literal earlier in this command)", name)
}

// arithWord is the reason a word used as an arithmetic operand is not
// known, or "". Arithmetic expansions and the subscripts of parameter
// expansions in it are checked where the walk meets them.
func (c *checker) arithWord(w *syntax.Word) string {
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			return c.arithText(p.Value)
		case *syntax.ParamExp:
			return c.arithParam(p)
		case *syntax.ArithmExp:
			return ""
		case *syntax.DblQuoted:
			if len(p.Parts) == 1 {
				switch q := p.Parts[0].(type) {
				case *syntax.ParamExp:
					return c.arithParam(q)
				case *syntax.ArithmExp:
					return ""
				}
			}
		}
	}
	if onlyLiteralParts(w) {
		return c.arithText(literalText(w))
	}
	return "a word whose value is known only when it runs is evaluated as arithmetic, where bash runs command text held in an array subscript"
}

// arithParam is the reason a parameter expansion used as an arithmetic
// operand is not known, or "".
func (c *checker) arithParam(p *syntax.ParamExp) string {
	if p.Length && p.Exp == nil && p.Slice == nil && p.Repl == nil && !p.Excl {
		return "" // ${#x} is a number
	}
	if p.Excl || p.Exp != nil || p.Slice != nil || p.Repl != nil || p.Index != nil || p.Names != 0 || p.NestedParam != nil || p.Param == nil {
		return fmt.Sprintf("the value of %s is evaluated as arithmetic and is not known to be an integer", paramText(p))
	}
	switch p.Param.Value {
	case "#", "?", "$", "!":
		return "" // always numbers
	}
	return c.intVar(p.Param.Value)
}

func paramText(p *syntax.ParamExp) string {
	if p.Param == nil {
		return "an expansion"
	}
	return "$" + p.Param.Value
}

// arithExpr checks every operand of e at its own level (an arithmetic
// expansion inside is checked where the walk meets it) and records its
// assignments; it returns the first reason an operand is not known.
// dominating: the expression surely runs before the statements after
// it, so that a variable it assigns is known to them.
func (c *checker) arithExpr(e syntax.ArithmExpr, dominating bool) string {
	switch e := e.(type) {
	case nil:
		return ""
	case *syntax.Word:
		return c.arithWord(e)
	case *syntax.ParenArithm:
		return c.arithExpr(e.X, dominating)
	case *syntax.UnaryArithm:
		if e.Op == syntax.Inc || e.Op == syntax.Dec {
			// x++ reads x, then assigns it a number.
			if r := c.arithTarget(e.X, true); r != "" {
				return r
			}
			if name := targetName(e.X); name != "" {
				c.intAssigned(name, true, dominating)
			}
			return ""
		}
		return c.arithExpr(e.X, dominating)
	case *syntax.BinaryArithm:
		if isArithAssign(e.Op) {
			if r := c.arithExpr(e.Y, dominating); r != "" {
				return r
			}
			if r := c.arithTarget(e.X, e.Op != syntax.Assgn); r != "" {
				return r
			}
			if name := targetName(e.X); name != "" {
				c.intAssigned(name, true, dominating)
			}
			return ""
		}
		if r := c.arithExpr(e.X, dominating); r != "" {
			return r
		}
		// The right of && and || and a branch of ?: may not run: what
		// they assign does not dominate.
		d := dominating && e.Op != syntax.AndArit && e.Op != syntax.OrArit && e.Op != syntax.TernQuest && e.Op != syntax.TernColon
		return c.arithExpr(e.Y, d)
	}
	return fmt.Sprintf("a %T in arithmetic is a construct spillway does not read", e)
}

// arithTarget checks the variable an arithmetic assignment sets; reads
// says whether its old value is used too (+=, ++).
func (c *checker) arithTarget(x syntax.ArithmExpr, reads bool) string {
	name := targetName(x)
	if name == "" {
		if w, ok := x.(*syntax.Word); ok && len(w.Parts) == 1 {
			if p, ok := w.Parts[0].(*syntax.ParamExp); ok && p.Param != nil && p.Index != nil && p.Exp == nil && !p.Excl && !p.Length {
				// An array element: its subscript is checked where the
				// walk meets it.
				if r := listedVar(p.Param.Value); r != "" {
					return r
				}
				if reads {
					return fmt.Sprintf("the value of an element of %s is evaluated as arithmetic and is not known to be an integer", p.Param.Value)
				}
				c.intAssigned(p.Param.Value+"[", false, false)
				return ""
			}
		}
		return "an arithmetic assignment to something that is not a plain variable"
	}
	if r := listedVar(name); r != "" {
		return r
	}
	if reads {
		return c.intVar(name)
	}
	return ""
}

// targetName is the variable an arithmetic assignment sets when it is
// a plain name (x, $x is not a target).
func targetName(x syntax.ArithmExpr) string {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return ""
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok && syntax.ValidName(l.Value) {
		return l.Value
	}
	return ""
}

func isArithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
		return true
	}
	return false
}

// isArithTest reports whether a test operator compares its operands as
// arithmetic, evaluating them as expressions.
func isArithTestOp(op syntax.BinTestOperator) bool {
	switch op {
	case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
		return true
	}
	return false
}

// isArithTest is isArithTestOp for the words of test and [.
func isArithTest(op string) bool {
	switch op {
	case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

// subscriptText is the reason the subscripts of a literal variable
// name (a[i], as given to unset, read, test -v, printf -v) are not
// known, or "". bash evaluates an indexed array's subscript as
// arithmetic.
func (c *checker) subscriptText(s string) string {
	i := strings.IndexByte(s, '[')
	if i < 0 {
		return ""
	}
	j := strings.LastIndexByte(s, ']')
	if j < i {
		return fmt.Sprintf("the subscript of %q is not closed", s)
	}
	sub := s[i+1 : j]
	if sub == "@" || sub == "*" {
		return ""
	}
	return c.arithText(sub)
}

// nameArg is the reason a word that names a variable to assign or test
// (read NAME, unset NAME, printf -v NAME, test -v NAME) keeps the part
// from being allowed, or "".
func (c *checker) nameArg(w word) string {
	if !w.Known {
		return fmt.Sprintf("the variable name %s is known only when it runs, and bash evaluates a subscript in it as arithmetic", w.Text)
	}
	return c.subscriptText(w.Text)
}

// varWord checks a word naming a variable the part assigns: a name on
// either list, or a subscript not known, is a hard reason; the name is
// no longer known to hold an integer.
func (c *checker) assignsName(st *partState, w word) {
	if r := c.nameArg(w); r != "" {
		st.hard = append(st.hard, r)
		return
	}
	if r := listedVar(w.Text); r != "" {
		st.hard = append(st.hard, r)
	}
	c.intAssigned(w.Text, false, false)
}

// loopAssigns reports whether a loop may assign a variable anywhere in
// it: then a variable known before the loop is not known in it, since a
// later iteration sees what an earlier one assigned.
func loopAssigns(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if found {
			return false
		}
		if m == n {
			return true
		}
		switch m := m.(type) {
		case *syntax.Assign:
			// n=$((n + 1)) leaves an integer an integer.
			found = m.Array != nil || m.Index != nil || m.Value == nil || !intValue(m.Value)
		case *syntax.DeclClause, *syntax.ForClause, *syntax.CoprocClause, *syntax.FuncDecl:
			found = true
		case *syntax.ParamExp:
			found = m.Exp != nil && (m.Exp.Op == syntax.AssignUnset || m.Exp.Op == syntax.AssignUnsetOrNull)
		case *syntax.CallExpr:
			if len(m.Args) > 0 {
				switch m.Args[0].Lit() {
				case "read", "mapfile", "readarray", "printf", "getopts", "wait", "eval", "source", ".", "unset", "trap", "alias":
					found = true
				}
				if !onlyLiteralParts(m.Args[0]) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// knownNode checks a node the walk meets against the list of fully
// known constructs: arithmetic, subscripts, slices, indirection and the
// parameter operators that assign or evaluate. It returns the first
// reason the node is not fully known, or "".
func (c *checker) knownNode(m syntax.Node, cx ctx) string {
	switch m := m.(type) {
	case *syntax.ArithmCmd:
		return c.arithExpr(m.X, dominates(cx))
	case *syntax.LetClause:
		return c.arithExprs(m.Exprs, dominates(cx))
	case *syntax.ArithmExp:
		return c.arithExpr(m.X, false)
	case *syntax.CStyleLoop:
		if r := c.arithExpr(m.Init, c.loopStart); r != "" {
			return r
		}
		return c.arithExprs([]syntax.ArithmExpr{m.Cond, m.Post}, false)
	case *syntax.ParamExp:
		return c.knownParam(m)
	case *syntax.Assign:
		if m.Index != nil {
			return c.arithExpr(m.Index, false)
		}
	case *syntax.ArrayElem:
		if m.Index != nil {
			return c.arithExpr(m.Index, false)
		}
	case *syntax.BinaryTest:
		if isArithTestOp(m.Op) {
			return c.arithTestSides(m)
		}
	case *syntax.UnaryTest:
		if m.Op == syntax.TsVarSet || m.Op == syntax.TsRefVar {
			if w, ok := m.X.(*syntax.Word); ok {
				return c.nameArg(resolveWord(w, ""))
			}
		}
	case *syntax.ExtGlob:
		return extGlobRisk(m)
	case *syntax.BraceExp, *syntax.ProcSubst, *syntax.CmdSubst:
	}
	return ""
}

// arithExprs checks each of exprs with arithExpr, in order, and
// returns the first reason, or "".
func (c *checker) arithExprs(exprs []syntax.ArithmExpr, dominating bool) string {
	for _, e := range exprs {
		if r := c.arithExpr(e, dominating); r != "" {
			return r
		}
	}
	return ""
}

// arithTestSides checks the two sides of an arithmetic comparison in
// [[ ]] (-eq, -lt, …): each is evaluated as arithmetic, and must be a
// word.
func (c *checker) arithTestSides(m *syntax.BinaryTest) string {
	for _, x := range []syntax.TestExpr{m.X, m.Y} {
		w, ok := x.(*syntax.Word)
		if !ok {
			return "an arithmetic comparison of something that is not a word"
		}
		if r := c.arithWord(w); r != "" {
			return r
		}
	}
	return ""
}

// knownParam checks a parameter expansion: indirection (${!x}) and the
// prompt operator (${x@P}) run code of a value; ${x=…} assigns; an
// indexed subscript and a slice are arithmetic.
func (c *checker) knownParam(p *syntax.ParamExp) string {
	if p.Excl && p.Names == 0 && !(p.Index != nil && isAllIndex(p.Index)) {
		return "${!name} expands the variable whose name is the value, and bash evaluates a subscript in that value as arithmetic"
	}
	if p.Index != nil && !isAllIndex(p.Index) {
		if r := c.arithExpr(p.Index, false); r != "" {
			return r
		}
	}
	if p.Slice != nil {
		if r := c.arithExpr(p.Slice.Offset, false); r != "" {
			return r
		}
		if r := c.arithExpr(p.Slice.Length, false); r != "" {
			return r
		}
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.OtherParamOps:
			if p.Exp.Word != nil && strings.Contains(p.Exp.Word.Lit(), "P") {
				return "${var@P} expands the variable as a prompt, which runs the command substitutions in its value"
			}
		case syntax.AssignUnset, syntax.AssignUnsetOrNull:
			if p.Param != nil {
				if r := listedVar(p.Param.Value); r != "" {
					return r
				}
				integer := p.Exp.Word != nil && onlyLiteralParts(p.Exp.Word) && isIntLiteral(literalText(p.Exp.Word))
				c.intAssigned(p.Param.Value, integer && p.Index == nil, false)
			}
		}
	}
	return ""
}

func isAllIndex(ix syntax.ArithmExpr) bool {
	if w, ok := ix.(*syntax.Word); ok {
		l := w.Lit()
		return l == "@" || l == "*"
	}
	return false
}

// intValue reports whether a word's value surely is an integer: an
// integer literal, or one arithmetic expansion (its operands are checked
// where the walk meets it).
func intValue(w *syntax.Word) bool {
	if onlyLiteralParts(w) {
		return isIntLiteral(literalText(w))
	}
	if len(w.Parts) != 1 {
		return false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.ArithmExp:
		return true
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			_, ok := p.Parts[0].(*syntax.ArithmExp)
			return ok
		}
	}
	return false
}
