// Package fields describes declarations, and is the one package that
// imports reflect to do it. A tool's input struct, its details and
// spillway.Policy are declarations: their fields' tags give the MCP,
// Anthropic and OpenAI schemas, the CLI's flags, the config file's keys,
// their bounds and docs/tools.md. Of reads a declaration once into a
// Type, a plain description (what the type holds, its fields, their tags
// and names); the packages that read declarations (internal/registry,
// internal/policy, schema) take that description, and reach a field of a
// value only through its Field (Get, Set, Zero, FromJSON).
//
// The declarations' tags, beside json (a parameter's or a detail's name;
// no omitempty makes a parameter required) and toml (a config key's
// name), are these eight keys, each holding one value, meaning the same
// on a tool's input and on the policy:
//
//	doc      what the field does, for a model and for a person
//	min      the least value of an integer (a number, or a name of the
//	         registry's consts: "min_cols"); less is refused
//	max      the greatest value of an integer; more is refused
//	ceiling  the most an integer is held to ("lines", "stream", "int32");
//	         more is not an error
//	default  a parameter's value when not given: the name of a config key
//	         (its value under the policy in force), a number, a name of
//	         consts, or a string
//	enum     the values a string parameter takes, comma-separated
//	cli      how the CLI takes a parameter: "positional", a short flag
//	         ("-i"), or "session" (none: it needs a session)
//	check    the named check of a config key's value ("patterns")
//
// What a tag cannot say is a method or a type: an input's Validate for
// what relates two parameters, a type that decodes itself from JSON
// (tool.RunRef) for a string that also takes an integer.
package fields

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
)

// Vocabulary lists the keys a declaration's tags may use beside json and
// toml (the package doc says what each means).
var Vocabulary = []string{"doc", "min", "max", "ceiling", "default", "enum", "cli", "check"}

// A Kind is what a Type holds, as the readers of declarations tell types
// apart.
type Kind int

// Kinds of types.
const (
	Other    Kind = iota // anything else: an interface, a func, a channel
	Struct               // a struct other than time.Time
	String               // a string, or a type whose underlying type is one
	Bool                 // a bool
	Int                  // a signed or unsigned integer other than time.Duration
	Float                // a float32 or float64
	Duration             // a time.Duration
	Time                 // a time.Time
	Bytes                // a []byte, which encoding/json writes as base64
	Slice                // a slice or an array of anything else
	Map                  // a map
	Pointer              // a pointer
)

// A Type describes a Go type of a declaration.
type Type struct {
	Kind Kind
	// Name is the type as Go writes it ("map[string]string",
	// "tool.BashInput").
	Name string
	// Elem is what a Pointer points to, or the element of a Slice, Bytes
	// or Map; Key is a Map's key type.
	Elem, Key *Type
	// Fields are a Struct's fields that the tag key Of was given names,
	// in their order: the fields of an embedded struct with no name in
	// the tag are the struct's own, as encoding/json has them. Under
	// "json", an exported field with no json tag is there too, under its
	// Go name (Field.Tag("json") tells it apart).
	Fields []Field
	// DecodesJSON: the type is a String whose pointer is a
	// json.Unmarshaler (tool.RunRef).
	DecodesJSON bool
}

func (t Type) String() string { return t.Name }

// Deref is t with every pointer taken away, and whether there was one.
func (t Type) Deref() (Type, bool) {
	ptr := false
	for t.Kind == Pointer && t.Elem != nil {
		t, ptr = *t.Elem, true
	}
	return t, ptr
}

// A Field describes one field of a struct type, reached from the type Of
// described: its names, its type and its tags.
type Field struct {
	// Name is the name the key's tag gives the field; Options are the
	// comma-separated words after it (`toml:"commands,omitempty"` has the
	// name "commands" and the option "omitempty"); GoName its name in Go.
	Name    string
	Options []string
	GoName  string
	// Path holds the names from the described type down to the field.
	Path []string
	Type Type
	tag  reflect.StructTag
	rt   reflect.Type
	// index finds the field in a value of the described type.
	index []int
}

// Tag returns the value of key in the field's tag, and whether it is
// there.
func (f Field) Tag(key string) (string, bool) { return f.tag.Lookup(key) }

// Has reports whether the field's tag has the option.
func (f Field) Has(option string) bool { return slices.Contains(f.Options, option) }

var described sync.Map // describedKey → Type

type describedKey struct {
	t   reflect.Type
	key string
}

// Of describes the type T by the tag key ("json", "toml"): its fields
// are those the key names, each field of a struct type with its own.
func Of[T any](key string) Type {
	rt := reflect.TypeFor[T]()
	if t, ok := described.Load(describedKey{rt, key}); ok {
		return t.(Type)
	}
	t := describe(rt, key, nil, nil, map[reflect.Type]bool{})
	described.Store(describedKey{rt, key}, t)
	return t
}

var (
	durationType    = reflect.TypeFor[time.Duration]()
	timeType        = reflect.TypeFor[time.Time]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

// kind is what rt holds.
func kind(rt reflect.Type) Kind {
	switch rt {
	case durationType:
		return Duration
	case timeType:
		return Time
	}
	switch rt.Kind() {
	case reflect.Struct:
		return Struct
	case reflect.String:
		return String
	case reflect.Bool:
		return Bool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return Int
	case reflect.Float32, reflect.Float64:
		return Float
	case reflect.Slice, reflect.Array:
		if rt.Elem().Kind() == reflect.Uint8 {
			return Bytes
		}
		return Slice
	case reflect.Map:
		return Map
	case reflect.Pointer:
		return Pointer
	}
	return Other
}

// describe describes rt; a struct's fields are found from the described
// type by path and index. open holds the types being described, so that
// a type that holds itself ends there.
func describe(rt reflect.Type, key string, path []string, index []int, open map[reflect.Type]bool) Type {
	t := Type{Kind: kind(rt), Name: rt.String()}
	if t.Kind == String {
		t.DecodesJSON = reflect.PointerTo(rt).Implements(jsonUnmarshaler)
	}
	if open[rt] {
		return t
	}
	open[rt] = true
	defer delete(open, rt)
	switch t.Kind {
	case Pointer, Slice, Bytes:
		elem := describe(rt.Elem(), key, nil, nil, open)
		t.Elem = &elem
	case Map:
		k, elem := describe(rt.Key(), key, nil, nil, open), describe(rt.Elem(), key, nil, nil, open)
		t.Key, t.Elem = &k, &elem
	case Struct:
		t.Fields = structFields(rt, key, path, index, open)
	}
	return t
}

// structFields describes the fields of struct type rt that key names.
func structFields(rt reflect.Type, key string, path []string, index []int, open map[reflect.Type]bool) []Field {
	out := make([]Field, 0, rt.NumField())
	for i := range rt.NumField() {
		sf := rt.Field(i)
		tag, ok := sf.Tag.Lookup(key)
		name, opts, _ := strings.Cut(tag, ",")
		at := append(slices.Clone(index), i)
		if sf.Anonymous && name == "" && tag != "-" && sf.Type.Kind() == reflect.Struct {
			out = append(out, structFields(sf.Type, key, path, at, open)...)
			continue
		}
		if key == "json" && !ok && !sf.Anonymous {
			name = sf.Name // as encoding/json writes it
		}
		if name == "" || name == "-" || !sf.IsExported() {
			continue
		}
		f := Field{Name: name, GoName: sf.Name, Path: append(slices.Clone(path), name), tag: sf.Tag, rt: sf.Type, index: at}
		if opts != "" {
			f.Options = strings.Split(opts, ",")
		}
		f.Type = describe(sf.Type, key, f.Path, f.index, open)
		out = append(out, f)
	}
	return out
}

// structValue is the struct v holds or points to.
func structValue(v any) reflect.Value {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	return rv
}

// Get returns the field in v, a value of the described type or a
// pointer to one, as a plain value: an integer as an int64, a float as a
// float64, a string type as a string; a time.Duration stays one, and any
// other value is returned as it is.
func (f Field) Get(v any) any {
	fv := structValue(v).FieldByIndex(f.index)
	switch f.Type.Kind {
	case Int:
		if fv.CanInt() {
			return fv.Int()
		}
		return int64(fv.Uint())
	case Float:
		return fv.Float()
	case String:
		return fv.String()
	}
	return fv.Interface()
}

// Zero reports whether the field in v is its type's zero value.
func (f Field) Zero(v any) bool { return structValue(v).FieldByIndex(f.index).IsZero() }

// Set sets the field in the value ptr points to to x: an int64 or int to
// any integer or float field, a float64 to a float field, a string to a
// field of a string type, nil to any (its zero), and any other value to a
// field of its own type. A value the field cannot hold is an error.
func (f Field) Set(ptr any, x any) error {
	fv := structValue(ptr).FieldByIndex(f.index)
	if n, ok := x.(int); ok {
		x = int64(n)
	}
	v := reflect.ValueOf(x)
	switch kind := f.Type.Kind; {
	case x == nil:
		fv.SetZero()
	case kind == Int && v.Kind() == reflect.Int64 && fv.CanInt():
		fv.SetInt(v.Int())
	case kind == Int && v.Kind() == reflect.Int64 && fv.CanUint() && v.Int() >= 0:
		fv.SetUint(uint64(v.Int()))
	case kind == Float && (v.Kind() == reflect.Int64 || v.Kind() == reflect.Float64):
		fv.SetFloat(v.Convert(fv.Type()).Float())
	case kind == String && v.Kind() == reflect.String:
		fv.SetString(v.String())
	case v.Type().AssignableTo(fv.Type()):
		fv.Set(v)
	default:
		return fmt.Errorf("the field is a %s, not a %s", fv.Type(), v.Type())
	}
	return nil
}

// FromJSON decodes raw into a value of the field's type, which Set takes.
func (f Field) FromJSON(raw []byte) (any, error) {
	fv := reflect.New(f.rt)
	if err := json.Unmarshal(raw, fv.Interface()); err != nil {
		return nil, err
	}
	return fv.Elem().Interface(), nil
}
