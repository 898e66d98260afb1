package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Claude Code keeps its permission rules in settings files as
// {"permissions": {"allow": [...], "ask": [...], "deny": [...]}}, each
// entry a tool name with an optional specifier: "Bash(npm test:*)",
// "Read(./secrets/**)", "WebFetch". Only the Bash entries are commands;
// the others are another tool's and are left alone.

// claudeLists are the permission lists read, with their decisions.
var claudeLists = map[string]Decision{"allow": Allow, "ask": Ask, "deny": Deny}

// ReadClaude reads the Bash entries of Claude Code settings files, in
// the order given; read returns nil data for a file that is not there.
// home shortens sources under it to "~/…". A file that is not JSON, a
// list that is not a list of strings, or a Bash entry whose pattern does
// not parse is a *FileError naming its line.
func ReadClaude(files []string, home string, read func(string) ([]byte, error)) ([]Rule, error) {
	var rules []Rule
	for _, f := range files {
		data, err := read(f)
		if err != nil {
			return nil, &FileError{File: displayPath(f, home), Msg: err.Error()}
		}
		if data == nil {
			continue
		}
		got, err := ParseClaude(displayPath(f, home), data)
		if err != nil {
			return nil, err
		}
		rules = append(rules, got...)
	}
	return rules, nil
}

// ParseClaude reads the Bash entries of one Claude Code settings file;
// name is how rules and errors refer to it.
func ParseClaude(name string, data []byte) ([]Rule, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil // Claude Code reads an empty file as no settings
	}
	var rules []Rule
	s := &jsonScan{dec: json.NewDecoder(bytes.NewReader(data)), data: data, name: name}
	s.dec.UseNumber()
	err := s.object(func(key string) error {
		if key != "permissions" {
			return s.skip()
		}
		return s.object(func(list string) error {
			d, ok := claudeLists[list]
			if !ok {
				return s.skip() // defaultMode, additionalDirectories, …
			}
			return s.array("permissions."+list, func(entry string, line int) error {
				r, ok, err := claudeRule(entry)
				if err != nil {
					return &FileError{File: name, Line: line, Msg: fmt.Sprintf("permissions.%s: %q: %v", list, entry, err)}
				}
				if ok {
					r.Decision, r.Source = d, fmt.Sprintf("%s:%d", name, line)
					rules = append(rules, r)
				}
				return nil
			})
		})
	})
	if err != nil {
		return nil, err
	}
	if _, err := s.dec.Token(); err != io.EOF {
		return nil, s.fail("text after the settings object")
	}
	return rules, nil
}

// claudeRule reads one permission entry; ok is false for another tool's.
// "Bash" alone, like "Bash(*)", is every command.
func claudeRule(entry string) (Rule, bool, error) {
	tool, spec, hasSpec := strings.Cut(entry, "(")
	tool = strings.TrimSpace(tool)
	if tool != "Bash" {
		return Rule{}, false, nil
	}
	r := Rule{Text: entry}
	if !hasSpec {
		r.Pattern = Pattern{Prefix: true}
		return r, true, nil
	}
	inner, closed := strings.CutSuffix(strings.TrimSpace(spec), ")")
	if !closed {
		return Rule{}, false, errors.New("the Bash( is not closed by a )")
	}
	p, err := ParsePattern(inner)
	if err != nil {
		return Rule{}, false, err
	}
	r.Pattern = p
	return r, true, nil
}

// jsonScan walks a JSON document token by token, so that an entry's line
// is known; encoding/json's own decoding forgets it.
type jsonScan struct {
	dec  *json.Decoder
	data []byte
	name string
}

// line is the line of the last token read.
func (s *jsonScan) line() int {
	off := min(int(s.dec.InputOffset()), len(s.data))
	return 1 + bytes.Count(s.data[:off], []byte{'\n'})
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
		off := min(int(se.Offset), len(s.data))
		return nil, &FileError{File: s.name, Line: 1 + bytes.Count(s.data[:off], []byte{'\n'}), Msg: "not JSON: " + se.Error()}
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

// array reads an array of strings, calling each with every string and
// its line.
func (s *jsonScan) array(what string, each func(string, int) error) error {
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
		str, ok := t.(string)
		if !ok {
			return s.fail(fmt.Sprintf("%s: want a list of strings, not one with %s", what, jsonKind(t)))
		}
		if err := each(str, s.line()); err != nil {
			return err
		}
	}
	_, err = s.token()
	return err
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
