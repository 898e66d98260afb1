package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// decodeArgs checks the arguments of a call against the tool's input
// schema and decodes them into in. The input schemas are flat objects of
// strings, integers, booleans, enums and string maps (see tools.go), so the
// check is done here, with errors that name the parameter and say what is
// wanted, rather than by a general JSON schema validator (whose decoding
// cost more than the rest of a small call).
func decodeArgs(raw json.RawMessage, schema object, in any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return fmt.Errorf("arguments must be a JSON object: %v", err)
	}
	var names []string
	for _, p := range schema.Props {
		names = append(names, p.Name)
	}
	for name := range args {
		if !slices.Contains(names, name) {
			return fmt.Errorf("unknown parameter %q; the parameters are: %s", name, strings.Join(names, ", "))
		}
	}
	for _, name := range schema.Required {
		if v, ok := args[name]; !ok || bytes.Equal(v, []byte("null")) {
			return fmt.Errorf("parameter %q is required", name)
		}
	}
	for _, p := range schema.Props {
		v, ok := args[p.Name]
		if !ok || bytes.Equal(v, []byte("null")) {
			continue
		}
		if err := checkValue(v, p.Schema.(map[string]any)); err != nil {
			return fmt.Errorf("parameter %q: %v", p.Name, err)
		}
	}
	return json.Unmarshal(raw, in)
}

// checkValue checks one argument against its property schema.
func checkValue(v json.RawMessage, s map[string]any) error {
	var x any
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return err
	}
	switch s["type"] {
	case "string":
		str, ok := x.(string)
		if !ok {
			return fmt.Errorf("want a string, got %s", v)
		}
		if values, ok := s["enum"].([]string); ok && !slices.Contains(values, str) {
			return fmt.Errorf("want one of %s, got %q", strings.Join(values, ", "), str)
		}
	case "boolean":
		if _, ok := x.(bool); !ok {
			return fmt.Errorf("want true or false, got %s", v)
		}
	case "integer":
		n, ok := x.(json.Number)
		if !ok {
			return fmt.Errorf("want an integer, got %s", v)
		}
		i, err := n.Int64()
		if err != nil {
			return fmt.Errorf("want an integer, got %s", v)
		}
		if min, ok := s["minimum"].(int); ok && i < int64(min) {
			return fmt.Errorf("want at least %d, got %d", min, i)
		}
	case "array":
		a, ok := x.([]any)
		if !ok {
			return fmt.Errorf("want an array, got %s", v)
		}
		if items, ok := s["items"].(map[string]any); ok && items["type"] == "string" {
			for i, e := range a {
				if _, ok := e.(string); !ok {
					return fmt.Errorf("item %d: want a string, got %v", i, e)
				}
			}
		}
	case "object":
		m, ok := x.(map[string]any)
		if !ok {
			return fmt.Errorf("want an object, got %s", v)
		}
		if ap, ok := s["additionalProperties"].(map[string]any); ok && ap["type"] == "string" {
			for k, val := range m {
				if _, ok := val.(string); !ok {
					return fmt.Errorf("%q: want a string value, got %v", k, val)
				}
			}
		}
	}
	return nil
}
