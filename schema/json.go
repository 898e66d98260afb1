package schema

import (
	"bytes"
	"encoding/json"
	"github.com/spillway-dev/spillway/internal/fields"
)

// An object is a JSON schema of type object whose properties keep the order
// they were written in, so that a model reads the important ones first.
type object struct {
	Description string
	Props       []property
	Required    []string
	// Closed forbids properties that are not listed (input schemas: an
	// unknown parameter is a mistake the model should hear about).
	Closed bool
}

// A property is one named property of an object schema.
type property struct {
	Name   string
	Schema any // map[string]any or object
}

// MarshalJSON writes the schema with its properties in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"object"`)
	if o.Description != "" {
		b.WriteString(`,"description":`)
		writeJSON(&b, o.Description)
	}
	b.WriteString(`,"properties":{`)
	for i, p := range o.Props {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, p.Name)
		b.WriteByte(':')
		if err := writeJSON(&b, p.Schema); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	if len(o.Required) > 0 {
		b.WriteString(`,"required":`)
		writeJSON(&b, o.Required)
	}
	if o.Closed {
		b.WriteString(`,"additionalProperties":false`)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}

// Helpers for the input schemas.

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

// outputSchema derives the JSON schema of a details type from its Go type
// and json tags, so that it cannot drift from what the tools return; a
// field's doc tag is its description. Fields without omitempty are required:
// encoding/json always writes them.
func outputSchema(t fields.Type) object {
	o := schemaOf(t)
	obj, ok := o.(object)
	if !ok {
		panic("schema: details type " + t.String() + " is not a struct")
	}
	return obj
}

func schemaOf(t fields.Type) any {
	t, nullable := t.Deref()
	var s any
	switch t.Kind {
	case fields.Time:
		return map[string]any{"type": "string", "format": "date-time"}
	case fields.Struct:
		o := object{}
		addFields(&o, t)
		s = o
	case fields.String:
		s = map[string]any{"type": "string"}
	case fields.Bool:
		s = map[string]any{"type": "boolean"}
	case fields.Int, fields.Duration:
		s = map[string]any{"type": "integer"}
	case fields.Float:
		s = map[string]any{"type": "number"}
	case fields.Bytes:
		s = map[string]any{"type": "string"} // []byte is base64
	case fields.Slice:
		s = map[string]any{"type": "array", "items": schemaOf(*t.Elem)}
	case fields.Map:
		s = map[string]any{"type": "object", "additionalProperties": schemaOf(*t.Elem)}
	default:
		s = map[string]any{} // any value
	}
	if !nullable {
		return s
	}
	// A pointer may be null: allow it beside the value's own type.
	switch v := s.(type) {
	case map[string]any:
		if typ, ok := v["type"].(string); ok {
			v["type"] = []string{typ, "null"}
			return v
		}
		return v
	default:
		return map[string]any{"anyOf": []any{v, map[string]any{"type": "null"}}}
	}
}

// addFields adds the exported, JSON-visible fields of struct t to o,
// flattening embedded structs the way encoding/json does.
func addFields(o *object, t fields.Type) {
	for _, f := range t.Fields {
		s := schemaOf(f.Type)
		if d, ok := f.Tag("doc"); ok {
			s = withDescription(s, d)
		}
		o.Props = append(o.Props, property{Name: f.Name, Schema: s})
		if !f.Has("omitempty") && !f.Has("omitzero") {
			o.Required = append(o.Required, f.Name)
		}
	}
}

func withDescription(s any, d string) any {
	switch v := s.(type) {
	case map[string]any:
		v["description"] = d
		return v
	case object:
		v.Description = d
		return v
	}
	return s
}
