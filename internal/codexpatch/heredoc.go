package codexpatch

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A Call is a shell command that is a call of Codex's apply_patch, as
// codex-rs recognizes one: the whole script is
//
//	apply_patch <<'EOF'
//	…patch…
//	EOF
//
// (applypatch too, any heredoc delimiter, quoted or not), optionally
// preceded by `cd DIR && `, with nothing else before or after.
type Call struct {
	Patch string // the heredoc's body
	Dir   string // the cd's directory, "" for none
}

// ParseCall reports whether script is a call of apply_patch and returns
// it. A script that is a patch given to the shell without apply_patch is
// not a call; IsBarePatch says so.
func ParseCall(script string) (Call, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil || len(f.Stmts) != 1 {
		return Call{}, false
	}
	st := f.Stmts[0]
	if !plain(st) {
		return Call{}, false
	}
	var c Call
	if bin, ok := st.Cmd.(*syntax.BinaryCmd); ok {
		if len(st.Redirs) > 0 {
			return Call{}, false
		}
		if c.Dir, st, ok = cdAnd(bin); !ok {
			return Call{}, false
		}
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) != 1 {
		return Call{}, false
	}
	if name := lit(call.Args[0]); name != "apply_patch" && name != "applypatch" {
		return Call{}, false
	}
	if len(st.Redirs) != 1 {
		return Call{}, false
	}
	body, ok := heredocBody(script, st.Redirs[0])
	if !ok {
		return Call{}, false
	}
	c.Patch = strings.TrimRight(body, "\n")
	return c, true
}

// cdAnd reads `cd DIR && STMT`, DIR a literal, and returns DIR and STMT.
func cdAnd(bin *syntax.BinaryCmd) (dir string, next *syntax.Stmt, ok bool) {
	if bin.Op != syntax.AndStmt || !plain(bin.X) || len(bin.X.Redirs) > 0 {
		return "", nil, false
	}
	cd, ok := bin.X.Cmd.(*syntax.CallExpr)
	if !ok || len(cd.Assigns) > 0 || len(cd.Args) != 2 || lit(cd.Args[0]) != "cd" {
		return "", nil, false
	}
	dir, ok = literal(cd.Args[1])
	if !ok || dir == "" || !plain(bin.Y) {
		return "", nil, false
	}
	return dir, bin.Y, true
}

// heredocBody returns the text of the heredoc rd, from script, without
// its closing delimiter line.
func heredocBody(script string, rd *syntax.Redirect) (string, bool) {
	if (rd.Op != syntax.Hdoc && rd.Op != syntax.DashHdoc) || rd.Hdoc == nil || rd.N != nil {
		return "", false
	}
	start, end := rd.Hdoc.Pos().Offset(), rd.Hdoc.End().Offset()
	if int(end) > len(script) || start > end {
		return "", false
	}
	body := script[start:end]
	if delim, ok := literal(rd.Word); ok {
		// The body's end may include the closing delimiter line.
		if i := strings.LastIndexByte(strings.TrimRight(body, "\n"), '\n'); i >= 0 && strings.TrimLeft(strings.TrimRight(body[i+1:], "\n"), "\t") == delim {
			body = body[:i]
		}
	}
	return body, true
}

// IsBarePatch reports whether script is a patch itself, given to the
// shell without apply_patch (Codex refuses it the same way).
func IsBarePatch(script string) bool {
	_, err := Parse(script)
	return err == nil
}

// plain is a statement that runs in the foreground, not negated.
func plain(st *syntax.Stmt) bool {
	return st != nil && !st.Negated && !st.Background && !st.Coprocess && st.Cmd != nil
}

// lit is a word that is one unquoted literal, "" otherwise.
func lit(w *syntax.Word) string {
	if len(w.Parts) != 1 {
		return ""
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok {
		return l.Value
	}
	return ""
}

// literal is a word without expansions: a literal, or one quoted string.
func literal(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		return p.Value, !strings.ContainsAny(p.Value, `\$*?[~`)
	case *syntax.SglQuoted:
		return p.Value, !p.Dollar
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return "", true
		}
		if len(p.Parts) == 1 {
			if l, ok := p.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, `\$`+"`") {
				return l.Value, true
			}
		}
	}
	return "", false
}
