package config

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/policy"
)

// The keys of the config file are the toml tags of spillway.Policy,
// walked once; policy.Key bounds each.
var (
	policyKeys = sync.OnceValue(func() []policy.Key { return policy.Keys(fields.Of[spillway.Policy]("toml")) })
	keysByName = sync.OnceValue(func() map[string]policy.Key {
		m := map[string]policy.Key{}
		for _, k := range policyKeys() {
			m[k.Name] = k
		}
		return m
	})
)

// lookup finds the key at path.
func lookup(path []string) (policy.Key, bool) {
	k, ok := keysByName()[strings.Join(path, ".")]
	return k, ok
}

// knownKeys lists the keys of the table at path (nil: the top level), its
// values before its tables; nil if path is not a table.
func knownKeys(path []string) []string {
	if k, ok := lookup(path); len(path) > 0 && (!ok || !k.Table()) {
		return nil
	}
	var names []string
	for _, k := range policyKeys() {
		if len(k.Path) == len(path)+1 && slices.Equal(k.Path[:len(path)], path) {
			names = append(names, k.Path[len(path)])
		}
	}
	return names
}

// keyElsewhere names where a key of this name is, for one written in
// the wrong table (timeout_ms under [bash]): "the top level (before any
// [table])" or "[TABLE]"; "" when no value key has that name.
func keyElsewhere(name string) string {
	var at []string
	for _, k := range policyKeys() {
		if k.Table() || k.Path[len(k.Path)-1] != name {
			continue
		}
		if len(k.Path) == 1 {
			at = append(at, "the top level (write it before any [table])")
		} else {
			at = append(at, "["+strings.Join(k.Path[:len(k.Path)-1], ".")+"]")
		}
	}
	if len(at) > 3 {
		return "" // a name every table has (max_bytes) says nothing
	}
	return strings.Join(at, ", ")
}

// keyKind says what the key takes ("an integer", "a table", …).
func keyKind(k policy.Key) string {
	switch t := k.Type; {
	case t.Kind == fields.Struct:
		return "a table"
	case t.Kind == fields.Slice:
		return "an array of strings"
	case t.Kind == fields.Float:
		return "a number"
	case t.Kind == fields.String:
		return "a string"
	case t.Kind == fields.Bool:
		return "true or false"
	}
	return "an integer"
}

// value checks that v, as go-toml decodes a document into a map, has the
// key's type, and returns it as policy.Key.Value gives it; else it says
// what is wrong.
func value(k policy.Key, v any) (any, string) {
	ok := false
	got := v
	switch t := k.Type; t.Kind {
	case fields.Struct:
		_, ok = v.(map[string]any)
	case fields.Slice:
		list, isList := v.([]any)
		strs := make([]string, 0, len(list))
		for _, e := range list {
			s, isString := e.(string)
			if !isString {
				isList, got = false, e
				break
			}
			strs = append(strs, s)
		}
		if ok = isList; ok {
			v = strs
		}
	case fields.Float:
		if n, isInt := v.(int64); isInt {
			v = float64(n)
		}
		_, ok = v.(float64)
	case fields.String:
		_, ok = v.(string)
	case fields.Bool:
		_, ok = v.(bool)
	default:
		_, ok = v.(int64)
	}
	if !ok {
		return nil, fmt.Sprintf("want %s, not %s", keyKind(k), article(tomlKind(got)))
	}
	return v, ""
}

// tomlKind names the TOML type of a decoded value.
func tomlKind(v any) string {
	switch v.(type) {
	case int64:
		return "integer"
	case float64:
		return "float"
	case string:
		return "string"
	case bool:
		return "boolean"
	case map[string]any:
		return "table"
	case []any:
		return "array"
	default:
		return "date or time"
	}
}

func article(kind string) string {
	if strings.IndexAny(kind[:1], "aeiou") == 0 {
		return "an " + kind
	}
	return "a " + kind
}

// TOML renders p as a config file that sets every key; read back with
// ParseConfig and applied to spillway.Profile(p.Profile), it gives p again
// (SpillWhen and ShownLines come from the profile, not from the file).
// The keys [bash] shares with its streams are written per stream.
func TOML(p spillway.Policy) ([]byte, error) {
	var b bytes.Buffer
	for _, k := range policyKeys() {
		switch {
		case len(k.Fields) > 1:
			continue
		case k.Table():
			fmt.Fprintf(&b, "\n[%s]\n", k.Name)
			continue
		}
		x := k.Value(p)
		if list, ok := x.([]string); ok && k.Omitempty && len(list) == 0 {
			continue
		}
		line, err := toml.Marshal(map[string]any{k.Path[len(k.Path)-1]: x})
		if err != nil {
			return nil, err
		}
		b.Write(line)
	}
	return b.Bytes(), nil
}
