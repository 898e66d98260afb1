package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"mvdan.cc/sh/v3/syntax"
)

// Claude Code keeps its permission rules in settings files as
// {"permissions": {"allow": [...], "ask": [...], "deny": [...]}}, each
// entry a tool name with an optional specifier: "Bash(npm test:*)",
// "Read(./secrets/**)", "WebFetch". The Bash entries are command rules,
// the Read, Edit and Write entries file rules; the others are another
// tool's and are left alone.

// claudeLists are the permission lists read, with their decisions.
var claudeLists = map[string]Decision{"allow": Allow, "ask": Ask, "deny": Deny}

// Parsed is what one settings file holds for spillway: the command
// rules, the file rules, the entries read the stricter way or left out,
// and whether it is an administrator's file that keeps every other
// file's allow entries out (allowManagedPermissionRulesOnly).
type Parsed struct {
	Rules       []Rule
	FileRules   []FileRule
	Notes       []Note
	ManagedOnly bool
}

// ParseClaude reads the permission entries of one Claude Code settings
// file; name is how rules and errors refer to it. Every entry is held
// exactly or read the stricter way with a Note (see claudeEntry); only a
// file that is not JSON, or whose permissions are not lists, is an
// error, a *FileError naming its line.
func ParseClaude(name string, data []byte) (Parsed, error) {
	var out Parsed
	if len(bytes.TrimSpace(data)) == 0 {
		return out, nil // Claude Code reads an empty file as no settings
	}
	s := &jsonScan{dec: json.NewDecoder(bytes.NewReader(data)), data: data, name: name, lineAt: 1}
	s.dec.UseNumber()
	err := s.object(func(key string) error {
		switch key {
		case "permissions":
		case "allowManagedPermissionRulesOnly":
			t, err := s.token()
			if err != nil {
				return err
			}
			if b, ok := t.(bool); ok {
				out.ManagedOnly = b
				return nil
			}
			return s.fail("allowManagedPermissionRulesOnly: want true or false, not " + jsonKind(t))
		default:
			return s.skip()
		}
		return s.object(func(list string) error {
			d, ok := claudeLists[list]
			if !ok {
				return s.skip() // defaultMode, additionalDirectories, …
			}
			return s.array("permissions."+list, func(entry string, line int, isString bool) {
				src := fmt.Sprintf("%s:%d", name, line)
				if !isString {
					out.Notes = append(out.Notes, Note{Source: src, Entry: entry, Action: Dropped,
						Why: fmt.Sprintf("permissions.%s holds %s, not a string: no rule is read from it", list, entry)})
					return
				}
				claudeEntry(&out, entry, d, src)
			})
		})
	})
	if err != nil {
		return Parsed{}, err
	}
	if _, err := s.dec.Token(); err != io.EOF {
		return Parsed{}, s.fail("text after the settings object")
	}
	return out, nil
}

// claudeEntry reads one permission entry into out. "Bash" alone, like
// "Bash(*)" or "Bash()", is every command; Read(…), Edit(…) and Write(…)
// are file rules; another tool's entry is left alone. A Bash entry that
// is not a pattern spillway holds exactly is read the stricter way:
//
//   - one without a * that is more than words (a here-document, $(…),
//     VAR=value, operators: an entry Claude Code wrote when the person
//     chose "don't ask again") is, for allow, the exact input (Exact);
//     for deny and ask, the smallest set of commands spillway can name
//     that holds it: its program and leading literal words as a prefix;
//   - one with a * that is not a pattern is dropped for allow, and
//     widened the same way for deny and ask.
func claudeEntry(out *Parsed, entry string, d Decision, src string) {
	tool, spec, hasSpec := strings.Cut(entry, "(")
	tool = strings.TrimSpace(tool)
	if kind, ok := fileKinds[tool]; ok {
		pat := ""
		if hasSpec {
			inner, closed := strings.CutSuffix(strings.TrimSpace(spec), ")")
			if !closed {
				widen(out, entry, d, src, Pattern{}, "the "+tool+"( is not closed by a )", true)
				return
			}
			pat = strings.TrimSpace(inner)
		}
		out.FileRules = append(out.FileRules, FileRule{Kind: kind, Pattern: pat, Decision: d, Source: src, Text: entry})
		return
	}
	if tool != "Bash" {
		return
	}
	r := Rule{Text: entry, Decision: d, Source: src}
	if !hasSpec {
		r.Pattern = Pattern{Prefix: true}
		out.Rules = append(out.Rules, r)
		return
	}
	inner, closed := strings.CutSuffix(strings.TrimSpace(spec), ")")
	if !closed {
		widen(out, entry, d, src, Pattern{Prefix: true}, "the Bash( is not closed by a )", false)
		return
	}
	if strings.TrimSpace(inner) == "" {
		r.Pattern = Pattern{Prefix: true}
		out.Rules = append(out.Rules, r)
		return
	}
	p, err := ParsePattern(inner)
	if err == nil {
		r.Pattern = p
		out.Rules = append(out.Rules, r)
		return
	}
	star := strings.Contains(inner, "*")
	if d == Allow && !star {
		r.Pattern = Pattern{Exact: strings.TrimSpace(inner)}
		out.Rules = append(out.Rules, r)
		out.Notes = append(out.Notes, Note{Source: src, Entry: entry, Action: HeldExact,
			Why: "more than the words of one command (" + short(err) + "): it allows this input exactly, and only its parts that no rule decides"})
		return
	}
	widen(out, entry, d, src, superset(inner), short(err), false)
}

// widen holds entry the stricter way: an allow entry is dropped, a deny
// or ask entry is held on sup, a pattern that matches every command it
// does (and more). For a file entry, sup is unused: the rule covers
// every file of its kind.
func widen(out *Parsed, entry string, d Decision, src string, sup Pattern, why string, file bool) {
	if d == Allow {
		out.Notes = append(out.Notes, Note{Source: src, Entry: entry, Action: Dropped, Why: why + ": an allow entry spillway cannot hold exactly is left out"})
		return
	}
	if file {
		tool, _, _ := strings.Cut(entry, "(")
		kind := fileKinds[strings.TrimSpace(tool)]
		out.FileRules = append(out.FileRules, FileRule{Kind: kind, Decision: d, Source: src, Text: entry})
		out.Notes = append(out.Notes, Note{Source: src, Entry: entry, Action: Widened, Held: strings.TrimSpace(tool), Why: why,
			Also: fmt.Sprintf("every %s of any file is now %s", kind, d)})
		return
	}
	held := "Bash(" + sup.String() + ")"
	also := "every command"
	if len(sup.Words) > 0 {
		also = fmt.Sprintf("every %s command", strings.TrimSuffix(sup.String(), " *"))
	}
	out.Rules = append(out.Rules, Rule{Text: entry, Pattern: sup, Decision: d, Source: src})
	out.Notes = append(out.Notes, Note{Source: src, Entry: entry, Action: Widened, Held: held, Why: why,
		Also: fmt.Sprintf("%s is now %s, where Claude Code's entry covers only what it matches", also, d)})
}

// superset is the smallest pattern spillway holds that matches every
// command the Bash(…) inner text s can: the leading literal words of
// its first simple command (assignments left out) as a prefix, or every
// command when that program is not a literal word.
func superset(s string) Pattern {
	f, err := syntax.NewParser().Parse(strings.NewReader(s), "")
	if err != nil || len(f.Stmts) == 0 {
		// A pattern Claude Code reads need not be bash: take the
		// leading plain word, if any.
		t := strings.TrimSpace(s)
		end := strings.IndexFunc(t, func(r rune) bool {
			return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '+' || unicode.IsLetter(r) || unicode.IsDigit(r))
		})
		if end < 0 {
			end = len(t)
		}
		if end > 0 && (end == len(t) || t[end] == ' ' || t[end] == '\t') {
			return Pattern{Words: [][]string{{t[:end]}}, Prefix: true}
		}
		return Pattern{Prefix: true}
	}
	cmd := f.Stmts[0].Cmd
	for {
		b, ok := cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		cmd = b.X.Cmd
	}
	call, ok := cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		// The first thing is not a simple command (a loop, a subshell,
		// a function): nothing short of every command holds it.
		return Pattern{Prefix: true}
	}
	p := Pattern{Prefix: true}
	for _, w := range call.Args {
		if !onlyLiteralParts(w) {
			break
		}
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && len(w.Parts) == 1 && (hasGlob(lit.Value) || hasBrace(lit.Value)) {
			break
		}
		p.Words = append(p.Words, []string{literalText(w)})
	}
	return p
}

// short is a ParsePattern error's text without the pattern it repeats.
func short(err error) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "pattern "); ok {
		if i := strings.Index(rest, "\" "); i > 0 {
			return rest[i+2:]
		}
	}
	return msg
}

// jsonScan walks a JSON document token by token, so that an entry's line
// is known; encoding/json's own decoding forgets it.
type jsonScan struct {
	dec  *json.Decoder
	data []byte
	name string
	// lineAt is the line at offset offAt: lines are counted on from the
	// last token, so that a file is read in time linear in its size.
	offAt, lineAt int
}

// line is the line of the last token read.
func (s *jsonScan) line() int {
	return s.lineOf(int(s.dec.InputOffset()))
}

func (s *jsonScan) lineOf(off int) int {
	off = min(off, len(s.data))
	if off < s.offAt {
		s.offAt, s.lineAt = 0, 1
	}
	s.lineAt += bytes.Count(s.data[s.offAt:off], []byte{'\n'})
	s.offAt = off
	return s.lineAt
}

func (s *jsonScan) fail(msg string) error {
	return &FileError{File: s.name, Line: s.line(), Msg: msg}
}

// token reads the next token, a syntax error named with its line.
func (s *jsonScan) token() (json.Token, error) {
	t, err := s.dec.Token()
	if err == nil {
		return t, nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return nil, &FileError{File: s.name, Line: s.lineOf(int(se.Offset)), Msg: "not JSON: " + se.Error()}
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, s.fail("not JSON: the file ends inside a value")
	}
	return nil, s.fail("not JSON: " + err.Error())
}

// object reads an object, calling each for every key with the decoder
// before its value, which each must read.
func (s *jsonScan) object(each func(key string) error) error {
	t, err := s.token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return s.fail(fmt.Sprintf("want an object, not %s", jsonKind(t)))
	}
	for s.dec.More() {
		k, err := s.token()
		if err != nil {
			return err
		}
		if err := each(k.(string)); err != nil {
			return err
		}
	}
	_, err = s.token()
	return err
}

// array reads an array, calling each with every element and its line:
// a string as itself, any other value as its kind ("a number").
func (s *jsonScan) array(what string, each func(string, int, bool)) error {
	t, err := s.token()
	if err != nil {
		return err
	}
	if t != json.Delim('[') {
		return s.fail(fmt.Sprintf("%s: want a list of strings, not %s", what, jsonKind(t)))
	}
	for s.dec.More() {
		t, err := s.token()
		if err != nil {
			return err
		}
		line := s.line()
		if t == json.Delim('{') || t == json.Delim('[') {
			if err := s.skipOpened(); err != nil {
				return err
			}
		}
		if str, ok := t.(string); ok {
			each(str, line, true)
		} else {
			each(jsonKind(t), line, false)
		}
	}
	_, err = s.token()
	return err
}

// skipOpened reads the rest of an object or list whose opening was read.
func (s *jsonScan) skipOpened() error {
	for depth := 1; depth > 0; {
		t, err := s.token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

// skip reads a value of any kind.
func (s *jsonScan) skip() error {
	depth := 0
	for {
		t, err := s.token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

func jsonKind(t json.Token) string {
	switch t.(type) {
	case json.Delim:
		if t == json.Delim('[') {
			return "a list"
		}
		return "an object"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "true or false"
	}
	return "null"
}
