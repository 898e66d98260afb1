package rules

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// readsStdin reports whether r redirects the command's stdin.
func readsStdin(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return r.N == nil || r.N.Value == "0"
	}
	return false
}

// redirect is the reason a redirection is not fully known, or "": one
// that assigns a file descriptor to a variable ({fd}>file) of either
// list, or that opens a network connection (/dev/tcp/…, /dev/udp/…).
func (c *checker) redirect(r *syntax.Redirect, src string) string {
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") && strings.HasSuffix(r.N.Value, "}") {
		if reason := c.fdVarRisk(r.N.Value[1 : len(r.N.Value)-1]); reason != "" {
			return reason
		}
	}
	if r.Word == nil {
		return ""
	}
	if reason := c.writeTargetRisk(r, src); reason != "" {
		return reason
	}
	return c.networkRisk(r, src)
}

// fdVarRisk is the reason assigning a descriptor to the variable name
// ({name}>file) keeps the part from being allowed, or ""; the variable
// then holds an integer.
func (c *checker) fdVarRisk(name string) string {
	if reason := listedVar(name); reason != "" {
		return reason
	}
	// {a[z]}>f: bash evaluates the subscript as arithmetic, whatever the
	// command.
	if reason := c.subscriptText(name); reason != "" {
		return reason
	}
	// The descriptor is a number.
	c.intAssigned(name, true, false)
	return ""
}

// writeTargetRisk is the reason the file a redirection writes keeps the
// part from being allowed, or "".
func (c *checker) writeTargetRisk(r *syntax.Redirect, src string) string {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.AppClob:
		return c.writeRisk(resolveWord(r.Word, src))
	case syntax.DplOut:
		// >&WORD duplicates a descriptor only when WORD expands to
		// digits or "-"; any other WORD is a file bash opens for stdout
		// and stderr, as &>WORD does.
		w := resolveWord(r.Word, src)
		switch {
		case w.Known && isDupWord(w.Text):
		case w.Known:
			return c.writeRisk(w)
		case !c.intParam(r.Word):
			return fmt.Sprintf("%s writes stdout and stderr to the file %s names unless it expands to a descriptor number, and it is known only when it runs", sourceOf(r, src), sourceOf(r.Word, src))
		}
	}
	return ""
}

// networkRisk is the reason a redirection opens, or may open, a network
// connection (/dev/tcp/…, /dev/udp/…), or "".
func (c *checker) networkRisk(r *syntax.Redirect, src string) string {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		// A delimiter or a here-string: no file is opened.
		return ""
	}
	lit, known := literalPrefix(r.Word)
	switch {
	case known && (strings.Contains(lit, "/dev/tcp/") || strings.Contains(lit, "/dev/udp/")):
		return "bash opens a network connection for a redirection to /dev/tcp or /dev/udp"
	case !known && (r.Op == syntax.DplOut || r.Op == syntax.DplIn) && c.intParam(r.Word):
		// A descriptor number.
	case !known && (strings.HasPrefix("/dev/tcp/", lit) || strings.HasPrefix("/dev/udp/", lit) ||
		strings.Contains(lit, "/dev/tcp/") || strings.Contains(lit, "/dev/udp/")):
		return fmt.Sprintf("the target %s is known only when it runs and may name /dev/tcp or /dev/udp, for which bash opens a network connection", sourceOf(r.Word, src))
	}
	return ""
}

// isDupWord reports whether the value of >&WORD names a descriptor
// (digits, optionally followed by "-" to move it) or closes one ("-").
func isDupWord(v string) bool {
	v = strings.TrimSuffix(v, "-")
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// intParam reports whether w is one expansion of a variable known to
// hold an integer ($fd, "${fd}" after {fd}>file or fd=3).
func (c *checker) intParam(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	p := w.Parts[0]
	if q, ok := p.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
		p = q.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Excl || pe.Length || pe.Width || pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil || pe.Names != 0 {
		return false
	}
	return c.intVar(pe.Param.Value) == ""
}

// literalPrefix is the value of w after quote removal, with known true,
// when w holds no expansion; else the value of its literal beginning,
// up to the first expansion (a parameter, a substitution, a tilde, a
// glob or a brace), with known false. bash compares a redirection's
// target to /dev/tcp/ after expansion, so a quote or a backslash in
// /dev/"tcp"/… hides nothing from it.
func literalPrefix(w *syntax.Word) (lit string, known bool) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") || hasGlob(v) || hasBrace(v) {
				return b.String(), false
			}
			b.WriteString(unescapeUnquoted(v))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(decodeANSIC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return b.String(), false
				}
				b.WriteString(unescapeDouble(l.Value))
			}
		default:
			return b.String(), false
		}
	}
	return b.String(), true
}
