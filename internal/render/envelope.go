// Package render renders a tool result for a surface: as the text the
// model reads, or as one JSON envelope for agents that parse results.
// Presentation is not part of the limits: a policy says how much a result
// shows, a Format how it is written.
package render

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Format says how a tool result's text content is rendered.
type Format string

const (
	// FormatText is the text docs/tools.md shows: content and bracketed notices.
	FormatText Format = "text"
	// FormatJSON is one compact JSON object, the zdx design's envelope: the
	// details and the pure content side by side (see Envelope).
	FormatJSON Format = "json"
)

// ParseFormat checks a --format value; "" is text.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case "", FormatText:
		return FormatText, nil
	case FormatJSON:
		return FormatJSON, nil
	}
	return "", fmt.Errorf("format %q: want text or json", s)
}

// Render returns the text content of a tool result in format f. For
// FormatText it is text itself. For FormatJSON it is ErrorEnvelope(text)
// when the call failed (bad parameters, a missing file: text is then the
// one-line error), and otherwise Envelope(details, content...) — a bash
// command that exits non-zero did not fail as a call: its envelope is
// "ok":true with its exit_code, while the result's is_error stays set.
func (f Format) Render(text string, details any, failed bool, content ...Field) string {
	if f != FormatJSON {
		return text
	}
	if failed {
		return ErrorEnvelope(text)
	}
	out, err := Envelope(details, content...)
	if err != nil {
		return ErrorEnvelope("spillway: cannot render the result as JSON: " + err.Error())
	}
	return out
}

// A Field is one pure content field of a result: its JSON name ("stdout",
// "stderr", "content") and the content, with no notice in it.
type Field struct {
	Name  string
	Value string
}

// Envelope renders a successful result as the zdx design's envelope, one compact
// JSON object:
//
//	{"ok":true,"data":{…details…,"stdout":"…","stderr":"…"}}
//
// details must marshal to a JSON object (or null); its members come first,
// in their order, then the content fields in the order given. A detail
// that has the name of a content field gives way to it: if it is an object
// its members are kept flattened with the prefix "<name>_" (bash's "stdout"
// details become "stdout_truncation", "stdout_full_output_path", …, as zdx's
// "stdout_truncated" do, docs/profiles.md), otherwise it is kept as "<name>_details".
// HTML characters are not escaped.
func Envelope(details any, content ...Field) (string, error) {
	members, err := objectMembers(details)
	if err != nil {
		return "", fmt.Errorf("envelope: %w", err)
	}
	isContent := make(map[string]bool, len(content))
	for _, f := range content {
		isContent[f.Name] = true
	}
	var b bytes.Buffer
	b.WriteString(`{"ok":true,"data":{`)
	first := true
	add := func(name string, raw []byte) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		writeString(&b, name)
		b.WriteByte(':')
		b.Write(raw)
	}
	for _, m := range members {
		if !isContent[m.name] {
			add(m.name, m.raw)
			continue
		}
		inner, err := objectMembers(m.raw)
		if err != nil {
			add(m.name+"_details", m.raw)
			continue
		}
		for _, im := range inner {
			add(m.name+"_"+im.name, im.raw)
		}
	}
	for _, f := range content {
		var v bytes.Buffer
		writeString(&v, f.Value)
		add(f.Name, v.Bytes())
	}
	b.WriteString("}}")
	return b.String(), nil
}

// ErrorEnvelope renders a failed call as the zdx design's envelope:
// {"ok":false,"error":"…"}.
func ErrorEnvelope(msg string) string {
	var b bytes.Buffer
	b.WriteString(`{"ok":false,"error":`)
	writeString(&b, msg)
	b.WriteByte('}')
	return b.String()
}

type member struct {
	name string
	raw  json.RawMessage
}

// objectMembers returns the members of the JSON object v marshals to (v
// may already be a json.RawMessage), in order, each value compacted.
func objectMembers(v any) ([]member, error) {
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = marshal(v); err != nil {
			return nil, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return nil, nil // null details: no members
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("details are not a JSON object")
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		var c bytes.Buffer
		if err := json.Compact(&c, val); err != nil {
			return nil, err
		}
		ms = append(ms, member{name, c.Bytes()})
	}
	return ms, nil
}

// marshal is json.Marshal without HTML escaping and without the trailing
// newline of an Encoder.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// writeString writes s as a JSON string, HTML characters unescaped.
func writeString(b *bytes.Buffer, s string) {
	raw, _ := marshal(s) // a string always marshals
	b.Write(raw)
}
