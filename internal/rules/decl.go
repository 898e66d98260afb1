package rules

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assignRisk says why an assignment keeps a part from being allowed,
// or "" when it does not.
func assignRisk(name string, value string, valueKnown bool) string {
	if r := listedVar(name); r != "" {
		return r
	}
	if valueKnown && (strings.Contains(value, "$(") || strings.Contains(value, "`")) {
		return fmt.Sprintf("the value given to %s holds command text, which runs if the value is later expanded in arithmetic or a prompt", name)
	}
	return ""
}

// assignRiskOf is assignRisk for the assignment a, whose value may be
// an array.
func assignRiskOf(a *syntax.Assign) string {
	if a.Name == nil {
		return ""
	}
	if a.Value != nil && onlyLiteralParts(a.Value) {
		return assignRisk(a.Name.Value, literalText(a.Value), true)
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			if e.Value != nil && onlyLiteralParts(e.Value) {
				if r := assignRisk(a.Name.Value, literalText(e.Value), true); r != "" {
					return r
				}
			}
		}
	}
	return assignRisk(a.Name.Value, "", false)
}

// decl decides a declaration (declare, typeset, local, export,
// readonly): what it assigns and the options it gives.
func (c *checker) decl(x *syntax.DeclClause, cx ctx) {
	c.node(x, cx)
	st := &partState{cx: cx}
	variant := x.Variant.Value
	ws := []word{{Text: variant, Known: true, Base: variant, BaseKnown: true}}
	switch variant {
	case "readonly":
		st.hard = append(st.hard, "readonly keeps a variable from being assigned again, so a later assignment in this or a later command may leave a value spillway does not know")
	case "nameref":
		st.hard = append(st.hard, "a name reference makes a variable stand for another, so an assignment to it may assign any variable")
	}
	// printOnly: declare -p and -f/-F print and assign nothing.
	printOnly := false
	for _, a := range x.Args {
		ws = append(ws, word{Text: sourceOf(a, cx.src), Known: true})
		if a.Naked && a.Name == nil && a.Value != nil {
			printOnly = c.declWord(st, variant, a.Value, cx, printOnly)
			continue
		}
		if r := assignRiskOf(a); r != "" {
			st.hard = append(st.hard, r)
		}
		if a.Name != nil && !printOnly {
			integer := a.Value != nil && a.Index == nil && !a.Append && onlyLiteralParts(a.Value) && isIntLiteral(literalText(a.Value))
			c.declared(st, a.Name.Value, integer, cx)
		}
	}
	st.words = ws
	c.final(st, ws, nil)
}

// declWord decides a word of a declaration the parser did not read as
// an assignment: a cluster of options, or NAME=VALUE written as one
// word. It returns printOnly, made true by options that only print.
func (c *checker) declWord(st *partState, variant string, v *syntax.Word, cx ctx, printOnly bool) bool {
	if !onlyLiteralParts(v) {
		if src := sourceOf(v, cx.src); strings.HasPrefix(src, "-") || strings.HasPrefix(src, "+") {
			st.hard = append(st.hard, "an option of "+variant+" is known only when it runs")
		} else {
			st.hard = append(st.hard, "it declares a variable whose name is known only when it runs")
		}
		return printOnly
	}
	t := literalText(v)
	if len(t) > 1 && (t[0] == '-' || t[0] == '+') {
		r, p := declFlags(variant, t)
		if r != "" {
			st.hard = append(st.hard, r)
			return printOnly
		}
		return printOnly || p
	}
	name, val, ok := strings.Cut(t, "=")
	if ok {
		if r := assignRisk(name, val, true); r != "" {
			st.hard = append(st.hard, r)
		}
	}
	if r := c.subscriptText(name); r != "" {
		st.hard = append(st.hard, r)
	}
	if !printOnly {
		c.declared(st, name, ok && isIntLiteral(val), cx)
	}
	return printOnly
}

// declared records a name a declaration gives: on either list it keeps
// the part from being allowed (declaring or exporting one without a
// value too: export PATH hands the value to every program).
func (c *checker) declared(st *partState, name string, integer bool, cx ctx) {
	if r := listedVar(name); r != "" {
		st.hard = append(st.hard, r)
	}
	c.intAssigned(name, integer, dominates(cx))
}

// declFlags is the reason a cluster of declare's options is not fully
// known, or ""; print says the options only print (-p, -f, -F).
func declFlags(variant, t string) (reason string, print bool) {
	for _, l := range t[1:] {
		switch l {
		case 'a', 'A', 'x', 'l', 'u', 'g', 'I':
		case 'p', 'F':
			print = true
		case 'f':
			if variant == "export" {
				return "export -f hands a function to every bash started later, as BASH_FUNC_ variables", false
			}
			print = true
		case 'n':
			if variant == "export" {
				continue // export -n takes the export away
			}
			return "-n makes a variable a name reference to another, so an assignment to it may assign any variable", false
		case 'i':
			return "-i makes every later assignment to the variable an arithmetic evaluation of its value", false
		case 'r':
			return "-r keeps a variable from being assigned again, so a later assignment may leave a value spillway does not know", false
		case 't':
			return "-t gives a function the DEBUG and RETURN traps", false
		default:
			return fmt.Sprintf("the option -%c of %s is not one spillway models", l, variant), false
		}
	}
	return "", print
}
