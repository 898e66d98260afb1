package rules

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// A word is one shell word as far as it can be known before the command
// runs. Text is the word after quote removal when Known; otherwise it is
// the word as written, kept for display only.
type word struct {
	Text string
	// Known is true when the word is a literal: no parameter, command,
	// arithmetic or process expansion, no glob, no brace expansion, no
	// tilde. Its value is then Text, whatever the environment.
	Known bool
	// Split is true when the word may become zero or several words when
	// it runs (an unquoted expansion, a glob, a brace expansion), so the
	// words after it may shift. A quoted expansion is one word, never
	// Split.
	Split bool
	// Base is the text after the word's last literal slash, when that
	// tail is literal: what a program named by this word resolves to
	// ("rm" for /bin/rm, ./rm and $HOME/bin/rm). BaseKnown says whether
	// there was such a literal tail.
	Base      string
	BaseKnown bool
	// Quoted is true when any part of the word was quoted or escaped:
	// such a word is never a reserved word or an alias.
	Quoted bool
}

// resolveWord removes quotes from w and says how much of it is known.
// src is the text w was parsed from, for display of unknown words.
func resolveWord(w *syntax.Word, src string) word {
	if text, quoted, ok := literalWord(w); ok {
		return word{Text: text, Known: true, Base: text[strings.LastIndexByte(text, '/')+1:], BaseKnown: true, Quoted: quoted}
	}
	return resolveWordSlow(w, src)
}

// literalWord is the quick path of resolveWord for the common word that
// holds no expansion at all; ok is false for any other.
func literalWord(w *syntax.Word) (text string, quoted, ok bool) {
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				return "", false, false
			}
			if plainLit(v) {
				continue
			}
			if hasGlob(v) || hasBrace(v) {
				return "", false, false
			}
			if strings.IndexByte(v, '\\') >= 0 {
				quoted = true
			}
		case *syntax.SglQuoted:
			quoted = true
		case *syntax.DblQuoted:
			quoted = true
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return "", false, false
				}
			}
		default:
			return "", false, false
		}
	}
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !quoted {
			return l.Value, false, true
		}
	}
	return literalText(w), quoted, true
}

// resolveWordSlow is resolveWord for a word that holds an expansion, a
// glob, a brace, a tilde or an escape.
func resolveWordSlow(w *syntax.Word, src string) word {
	wb := wordBuilder{res: word{Known: true}, tailKnown: true}
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			wb.unquotedLit(p.Value, i == 0)
		case *syntax.SglQuoted:
			wb.res.Quoted = true
			if p.Dollar {
				wb.addLit(decodeANSIC(p.Value))
			} else {
				wb.addLit(p.Value)
			}
		case *syntax.DblQuoted:
			wb.res.Quoted = true
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					wb.addLit(unescapeDouble(l.Value))
				} else {
					wb.unknown(false)
				}
			}
		default:
			// ParamExp, CmdSubst, ArithmExp, ProcSubst, ExtGlob: known
			// only when it runs; unquoted, it is split into words, and a
			// split can make any of its pieces the program ($X/rm with
			// X="sh -c x" runs sh), so no base name survives it.
			_, isProc := p.(*syntax.ProcSubst)
			wb.unknown(!isProc)
			if !isProc {
				wb.fieldSplit = true
			}
		}
	}
	return wb.result(w, src)
}

// A wordBuilder gathers the parts of a word for resolveWordSlow.
type wordBuilder struct {
	res word
	// text is the word's literal text, its parts known only when it runs
	// left out.
	text strings.Builder
	// tailStart is where in text the literal tail since the last literal
	// slash starts; the tail stops being literal (tailKnown) when an
	// expansion follows that slash.
	tailStart int
	tailKnown bool
	// braces and fieldSplit: the word may become several words, so no
	// tail of it names the program.
	braces, fieldSplit bool
}

// addLit adds literal text to the word.
func (wb *wordBuilder) addLit(s string) {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		wb.tailStart = wb.text.Len() + i + 1
		wb.tailKnown = true
	}
	wb.text.WriteString(s)
}

// unknown marks the word as known only when it runs; split says it may
// also become zero or several words.
func (wb *wordBuilder) unknown(split bool) {
	wb.res.Known = false
	wb.tailKnown = false
	if split {
		wb.res.Split = true
	}
}

// unquotedLit adds an unquoted literal part; first says it starts the
// word, where a tilde is a home directory.
func (wb *wordBuilder) unquotedLit(v string, first bool) {
	tilde := first && strings.HasPrefix(v, "~")
	if tilde {
		// A tilde prefix becomes a home directory: the word is
		// not literal, but one word.
		wb.unknown(false)
	}
	if hasGlob(v) {
		wb.unknown(true)
	}
	if hasBrace(v) {
		// {/bin/rm,-rf,/} is three words: no tail of it names
		// the program.
		wb.unknown(true)
		wb.braces = true
	}
	if strings.IndexByte(v, '\\') >= 0 {
		wb.res.Quoted = true
	}
	wb.addLit(unescapeUnquoted(v))
	// A glob before the last slash still ends in the same base
	// name (/*/rm is some rm); one after it does not (/bin/r?).
	after := v
	if j := strings.LastIndexByte(v, '/'); j >= 0 {
		after = v[j+1:]
	} else if tilde {
		wb.tailKnown = false
	}
	if hasGlob(after) {
		wb.tailKnown = false
	}
}

// result is the word gathered: its unquoted text when known, else its
// source; its base name when its tail is literal and it stays one word.
func (wb *wordBuilder) result(w *syntax.Word, src string) word {
	res := wb.res
	if res.Known {
		res.Text = wb.text.String()
	} else {
		res.Text = sourceOf(w, src)
	}
	if wb.tailKnown && !wb.braces && !wb.fieldSplit {
		res.Base = wb.text.String()[wb.tailStart:]
		res.BaseKnown = true
	}
	return res
}

// nextWord is the word after args[i], the value of an option there, and
// its index; past the end it is the zero word and i.
func nextWord(args []word, i int) (word, int) {
	if i+1 < len(args) {
		return args[i+1], i + 1
	}
	return word{}, i
}

// sourceOf returns the text of node n in src, or a printed form when the
// positions do not fit src.
func sourceOf(n syntax.Node, src string) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s >= 0 && e <= len(src) && s <= e {
		return src[s:e]
	}
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, n)
	return b.String()
}

// plainLit reports whether an unquoted literal holds none of the bytes
// hasGlob, hasBrace and an escape look for: one pass over the common
// literal instead of three.
func plainLit(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '*', '?', '[', '{', '\\':
			return false
		}
	}
	return true
}

// hasGlob reports whether an unquoted literal holds a pattern character
// that pathname expansion would act on. A lone "[" with no "]" after it
// is literal (the test command "[").
func hasGlob(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.IndexByte(v[i+1:], ']') >= 0 {
				return true
			}
		}
	}
	return false
}

// hasBrace reports whether an unquoted literal may be a brace expansion
// ({a,b} or {1..3}): such a word becomes several words.
func hasBrace(v string) bool {
	open := -1
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '{':
			open = i
		case '}':
			if open >= 0 {
				in := v[open+1 : i]
				if strings.Contains(in, ",") || strings.Contains(in, "..") {
					return true
				}
			}
		}
	}
	return false
}

// unescapeUnquoted removes the backslashes of an unquoted literal: each
// escapes the byte after it.
func unescapeUnquoted(v string) string {
	if strings.IndexByte(v, '\\') < 0 {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that escape within double
// quotes: before $, `, ", \ and newline; others stay.
func unescapeDouble(v string) string { return unescapeBefore(v, "$`\"\\") }

// unescapeHeredoc removes the backslashes an unquoted here-document
// body gives meaning to: before $, `, \ and newline.
func unescapeHeredoc(v string) string { return unescapeBefore(v, "$`\\") }

// unescapeBefore removes a backslash before one of special (dropping
// the backslash) or before a newline (dropping both: a line
// continuation); other backslashes stay.
func unescapeBefore(v, special string) string {
	if strings.IndexByte(v, '\\') < 0 {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			if v[i+1] == '\n' {
				i++
				continue
			}
			if strings.IndexByte(special, v[i+1]) >= 0 {
				i++
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// decodeANSIC decodes the body of a $'...' string as bash does.
func decodeANSIC(v string) string {
	if strings.IndexByte(v, '\\') < 0 {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = v[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'c':
			if i+1 < len(v) {
				i++
				b.WriteByte(v[i] & 0x1f)
			} else {
				b.WriteString(`\c`)
			}
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(v) && j-i-1 < max && isHex(v[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			n, _ := strconv.ParseUint(v[i+1:j], 16, 32)
			if c == 'x' {
				b.WriteByte(byte(n))
			} else if r := rune(n); utf8.ValidRune(r) {
				b.WriteRune(r)
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(v) && j-i < 3 && v[j] >= '0' && v[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(v[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// hdocText returns the literal text of a here-document or here-string,
// and whether it is literal (no expansion in it).
func hdocText(r *syntax.Redirect) (string, bool) {
	if r.Op == syntax.WordHdoc {
		w := resolveWord(r.Word, "")
		// A here-string is not subject to globbing or brace expansion,
		// but resolveWord marks those unknown: accept a word whose only
		// unknowns would be those by checking for real expansions.
		if w.Known {
			return w.Text, true
		}
		if onlyLiteralParts(r.Word) {
			return literalText(r.Word), true
		}
		return "", false
	}
	if r.Hdoc == nil {
		return "", true
	}
	quoted := false
	for _, p := range r.Word.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			quoted = true
		} else if strings.IndexByte(p.(*syntax.Lit).Value, '\\') >= 0 {
			quoted = true
		}
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		if quoted {
			b.WriteString(l.Value)
		} else {
			b.WriteString(unescapeHeredoc(l.Value))
		}
	}
	return b.String(), true
}

// onlyLiteralParts reports whether a word holds no expansion of any kind
// (quotes allowed).
func onlyLiteralParts(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// literalText is the quote-removed text of a word onlyLiteralParts
// accepted.
func literalText(w *syntax.Word) string {
	if len(w.Parts) == 1 {
		// One part needs no joining: its text is the word's.
		switch p := w.Parts[0].(type) {
		case *syntax.SglQuoted:
			if !p.Dollar {
				return p.Value
			}
		case *syntax.DblQuoted:
			switch len(p.Parts) {
			case 0:
				return ""
			case 1:
				return unescapeDouble(p.Parts[0].(*syntax.Lit).Value)
			}
		case *syntax.Lit:
			return unescapeUnquoted(p.Value)
		}
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeUnquoted(p.Value))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(decodeANSIC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				b.WriteString(unescapeDouble(q.(*syntax.Lit).Value))
			}
		}
	}
	return b.String()
}
