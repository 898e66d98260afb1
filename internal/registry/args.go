package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/spillway-dev/spillway/internal/fields"
	"slices"
	"strings"
	"time"
)

// A Call is a tool call checked against the table: the method it asks for
// and its Go input, filled from the arguments.
type Call struct {
	Method Method
	// In points to the method's input (a *BashInput for bash's Run).
	In any
}

// Decode checks the arguments of a call of tool t — a JSON object of
// parameters by name, as an MCP client sends them — against t's
// parameters, and fills the Go input of the method they ask for. It does
// the checking itself, with errors that name the parameter and say what is
// wanted, rather than with a general JSON schema validator, whose decoding
// cost more than the rest of a small call.
// Its errors name the parameter and say what is wanted; the caller
// names the tool.
func Decode(t Tool, raw json.RawMessage) (Call, error) {
	fail := func(format string, args ...any) (Call, error) {
		return Call{}, fmt.Errorf(format, args...)
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return fail("arguments must be a JSON object: %v", err)
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
			return fail("unknown parameter %q; the parameters are: %s", name, strings.Join(names, ", "))
		}
	}
	for _, p := range t.Params {
		if _, ok := args[p.Name]; !ok && p.Required {
			return fail("parameter %q is required", p.Name)
		}
	}
	values := make(map[string]any, len(args))
	for _, p := range t.Params {
		v, ok := args[p.Name]
		if !ok {
			continue
		}
		x, err := p.decode(v)
		if err != nil {
			return fail("parameter %q: %v", p.Name, err)
		}
		values[p.Name] = x
	}
	m, err := t.method(values)
	if err != nil {
		return fail("%v", err)
	}
	in := fields.New(t.Inputs[m])
	for name, x := range values {
		p, _ := t.Param(name)
		if err := setField(t.Inputs[m], in, name, x); err != nil {
			return fail("parameter %q: %v", p.Name, err)
		}
	}
	return Call{Method: m, In: in}, nil
}

// method returns the method a call with the given parameters asks for:
// the one its selecting parameter names (check_pid: CheckJob), else Run.
// Every parameter given must belong to it.
func (t Tool) method(values map[string]any) (Method, error) {
	var selectors, given []string
	for _, p := range t.Params {
		if !p.Selects {
			continue
		}
		selectors = append(selectors, p.Name)
		if v, ok := values[p.Name]; ok && !fields.IsZero(v) {
			given = append(given, p.Name)
		}
	}
	if t.Choice != "" {
		// The Run method's first parameter is one of the choices.
		if v, ok := values[t.Params[0].Name]; ok && !fields.IsZero(v) {
			given = append(given, t.Params[0].Name)
		}
		if len(given) != 1 {
			return 0, errors.New(t.Choice)
		}
	} else if len(given) > 1 {
		return 0, fmt.Errorf("give at most one of %s", orList(selectors))
	}
	m := Run
	if len(given) == 1 {
		p, _ := t.Param(given[0])
		m = p.methods()
	}
	var extra, takes []string
	for _, p := range t.Params {
		switch _, ok := values[p.Name]; {
		case len(given) == 1 && p.Name == given[0]:
		case !p.AppliesTo(m) && ok:
			extra = append(extra, p.Name)
		case p.AppliesTo(m):
			takes = append(takes, p.Name)
		}
	}
	switch {
	case len(extra) == 0:
		return m, nil
	case m == Run:
		// Parameters of a method that no selecting parameter chose.
		return 0, fmt.Errorf("%s go with %s: give it, or leave them out", strings.Join(extra, ", "), orList(selectors))
	case len(takes) == 0:
		// A job call acts on a running job: the parameters of a new
		// command would have no effect, so say so rather than ignore them.
		return 0, fmt.Errorf("%s takes no other parameter (got %s)", given[0], strings.Join(extra, ", "))
	}
	return 0, fmt.Errorf("%s takes only %s (got %s)", given[0], strings.Join(takes, ", "), strings.Join(extra, ", "))
}

func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
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
		s, ok := x.(string)
		if n, isNum := x.(json.Number); isNum && p.OrInt {
			s, ok = n.String(), true
		}
		if !ok {
			return nil, fmt.Errorf("want a string, got %s", v)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, s) {
			return nil, fmt.Errorf("want one of %s, got %q", strings.Join(p.Enum, ", "), s)
		}
		return s, nil
	case Bool:
		b, ok := x.(bool)
		if !ok {
			return nil, fmt.Errorf("want true or false, got %s", v)
		}
		return b, nil
	case Int, Millis:
		n, ok := x.(json.Number)
		if !ok {
			return nil, fmt.Errorf("want an integer, got %s", v)
		}
		i, err := n.Int64()
		if err != nil {
			return nil, fmt.Errorf("want an integer, got %s", v)
		}
		if i < p.Min {
			return nil, fmt.Errorf("want at least %d, got %d", p.Min, i)
		}
		if p.Max != 0 && i > p.Max {
			return nil, fmt.Errorf("want at most %d, got %d", p.Max, i)
		}
		if p.Ceiling != 0 {
			i = min(i, p.Ceiling)
		}
		if p.Type == Millis {
			return time.Duration(i) * time.Millisecond, nil
		}
		return i, nil
	case StringList:
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
	case StringMap:
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
	return nil, fmt.Errorf("parameter type %d is not known", p.Type)
}

// setField sets the field of the input in points to, of type t, whose
// json tag is name.
func setField(t fields.Type, in any, name string, x any) error {
	f, ok := fieldByTag(t, name)
	if !ok {
		return errors.New("the Go input has no field for it")
	}
	if err := fields.Set(in, f.Index, x); err != nil {
		return fmt.Errorf("the Go input: %v", err)
	}
	return nil
}

// fieldByTag finds the field of struct t whose json tag names name.
func fieldByTag(t fields.Type, name string) (fields.Field, bool) {
	var found fields.Field
	ok := false
	fields.Walk(t, "json", func(f fields.Field) bool {
		if f.Name == name && !ok {
			found, ok = f, true
		}
		return false
	})
	return found, ok
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
