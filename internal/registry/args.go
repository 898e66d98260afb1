package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Decode checks the arguments of a call of tool t — a JSON object of
// parameters by name, as an MCP client sends them — against t's
// parameters, and returns a pointer to t's Go input filled from them. It
// does the checking itself, with errors that name the parameter and say
// what is wanted, rather than with a general JSON schema validator, whose
// decoding cost more than the rest of a small call. A value given is held
// to the bounds Check holds a Go caller's to, by the same code; what is
// left of the check (the input's Validate) runs in the tool's handler,
// for every caller.
// Its errors name the parameter and say what is wanted; the caller
// names the tool.
func Decode(t Tool, raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, fmt.Errorf("arguments must be a JSON object: %v", err)
	}
	for name, v := range args {
		if bytes.Equal(v, []byte("null")) {
			delete(args, name) // null is "not given"
		}
	}
	var names []string
	for _, p := range t.Params {
		names = append(names, p.Name)
	}
	for _, name := range sortedKeys(args) {
		if !slices.Contains(names, name) {
			return nil, fmt.Errorf("unknown parameter %q; the parameters are: %s", name, strings.Join(names, ", "))
		}
	}
	for _, p := range t.Params {
		if _, ok := args[p.Name]; !ok && p.Required {
			return nil, fmt.Errorf("parameter %q is required", p.Name)
		}
	}
	in := t.New()
	for _, p := range t.Params {
		v, ok := args[p.Name]
		if !ok {
			continue
		}
		x, err := p.decode(v)
		if err != nil {
			return nil, fmt.Errorf("parameter %q: %v", p.Name, err)
		}
		if err := p.field.Set(in, x); err != nil {
			return nil, fmt.Errorf("parameter %q: the Go input: %v", p.Name, err)
		}
	}
	return in, nil
}

// A Validator is an input that checks itself beyond its tags' bounds:
// which parameters go together (bash's command, check_pid and kill_pid).
type Validator interface{ Validate() error }

// Check is the one check of a tool's input, whoever calls: in points to
// a value of t's Go input. Every integer given is held to its ceiling and
// checked against its bounds, every string against its values, as
// Decode checks the JSON ones; then the input's own Validate runs.
func Check(t Tool, in any) error {
	for _, p := range t.Params {
		if p.Required && p.field.Zero(in) {
			return fmt.Errorf("parameter %q is required", p.Name)
		}
		if err := p.check(in); err != nil {
			return fmt.Errorf("parameter %q: %v", p.Name, err)
		}
	}
	if v, ok := in.(Validator); ok {
		return v.Validate()
	}
	return nil
}

// check checks p's value in the input in points to, a zero value being
// "not given", and holds an integer to p's ceiling.
func (p Param) check(in any) error {
	switch x := p.field.Get(in).(type) {
	case int64:
		if x == 0 {
			return nil
		}
		n, err := p.bound(x)
		if err == nil && n != x {
			err = p.field.Set(in, n)
		}
		return err
	case time.Duration:
		if x == 0 {
			return nil
		}
		ms := x.Milliseconds()
		switch {
		case x > 0 && ms < p.Min:
			ms = p.Min // a Go caller's fraction of a millisecond
		case x < 0 && ms == 0:
			ms = -1
		}
		n, err := p.bound(ms)
		if err == nil && n != ms {
			err = p.field.Set(in, time.Duration(n)*time.Millisecond)
		}
		return err
	case string:
		if x == "" {
			return nil
		}
		return p.oneOf(x)
	}
	return nil
}

// bound checks an integer against p's bounds and holds it to p's
// ceiling.
func (p Param) bound(i int64) (int64, error) {
	if i < p.Min {
		return 0, fmt.Errorf("want at least %d, got %d", p.Min, i)
	}
	if p.Max != 0 && i > p.Max {
		return 0, fmt.Errorf("want at most %d, got %d", p.Max, i)
	}
	if p.Ceiling != 0 {
		i = min(i, p.Ceiling)
	}
	return i, nil
}

// oneOf checks a string against p's values, if it has a list of them.
func (p Param) oneOf(s string) error {
	if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
		return fmt.Errorf("want one of %s, got %q", strings.Join(p.Enum, ", "), s)
	}
	return nil
}

// decode checks one argument against p and returns its Go value: a string,
// an int64, a bool, a time.Duration, a []string or a map[string]string.
func (p Param) decode(v json.RawMessage) (any, error) {
	var x any
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	switch p.Type {
	case String:
		return p.decodeString(x, v)
	case Bool:
		b, ok := x.(bool)
		if !ok {
			return nil, fmt.Errorf("want true or false, got %s", v)
		}
		return b, nil
	case Int, Millis:
		return p.decodeInt(x, v)
	case StringList:
		return decodeStrings(x, v)
	case ObjectList:
		return p.decodeObjects(x, v)
	case StringMap:
		return decodeStringMap(x, v)
	}
	return nil, fmt.Errorf("parameter type %d is not known", p.Type)
}

// decodeString checks a String argument, x as v decodes.
func (p Param) decodeString(x any, v json.RawMessage) (any, error) {
	s, ok := x.(string)
	if n, isNum := x.(json.Number); isNum && p.OrInt {
		s, ok = n.String(), true
	}
	if !ok {
		return nil, fmt.Errorf("want a string, got %s", v)
	}
	if err := p.oneOf(s); err != nil {
		return nil, err
	}
	return s, nil
}

// decodeInt checks an Int or Millis argument against p's bounds.
func (p Param) decodeInt(x any, v json.RawMessage) (any, error) {
	n, ok := x.(json.Number)
	if !ok {
		return nil, fmt.Errorf("want an integer, got %s", v)
	}
	i, err := n.Int64()
	if err != nil {
		return nil, fmt.Errorf("want an integer, got %s", v)
	}
	if i, err = p.bound(i); err != nil {
		return nil, err
	}
	if p.Type == Millis {
		return time.Duration(i) * time.Millisecond, nil
	}
	return i, nil
}

// decodeStrings checks a StringList argument.
func decodeStrings(x any, v json.RawMessage) (any, error) {
	list, ok := x.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of strings, got %s", v)
	}
	out := make([]string, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("item %d: want a string, got %v", i, e)
		}
		out[i] = s
	}
	return out, nil
}

// decodeObjects checks each object of an ObjectList argument against
// p's Items, then decodes the list into the field's type.
func (p Param) decodeObjects(x any, v json.RawMessage) (any, error) {
	list, ok := x.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of objects, got %s", v)
	}
	for i, e := range list {
		o, ok := e.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("item %d: want an object, got %v", i, e)
		}
		if err := p.checkItem(o); err != nil {
			return nil, fmt.Errorf("item %d: %v", i, err)
		}
	}
	return p.field.FromJSON(v)
}

// checkItem checks one object of an ObjectList against p's Items.
func (p Param) checkItem(o map[string]any) error {
	for _, k := range sortedKeys(o) {
		j := slices.IndexFunc(p.Items, func(it Param) bool { return it.Name == k })
		if j < 0 {
			return fmt.Errorf("unknown field %q; want %s", k, itemNames(p.Items))
		}
		raw, _ := json.Marshal(o[k])
		if _, err := p.Items[j].decode(raw); err != nil {
			return fmt.Errorf("%q: %v", k, err)
		}
	}
	for _, it := range p.Items {
		if _, ok := o[it.Name]; it.Required && !ok {
			return fmt.Errorf("%q is required", it.Name)
		}
	}
	return nil
}

// decodeStringMap checks a StringMap argument.
func decodeStringMap(x any, v json.RawMessage) (any, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want an object, got %s", v)
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		s, ok := m[k].(string)
		if !ok {
			return nil, fmt.Errorf("%q: want a string value, got %v", k, m[k])
		}
		out[k] = s
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// itemNames lists the fields of a list's objects, for an error.
func itemNames(items []Param) string {
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = strconv.Quote(it.Name)
	}
	return strings.Join(names, ", ")
}
