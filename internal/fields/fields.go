// Package fields is the one place that reads Go types by reflection. A
// tool's input struct, its details and spillway.Policy are declarations:
// their fields' tags give the MCP, Anthropic and OpenAI schemas, the CLI's
// flags, the config file's keys, their bounds and docs/tools.md. The
// packages that read those declarations (internal/registry,
// internal/policy, internal/config, schema) see types as Type and Field,
// and values as plain Go values through Get, Set and New, so that what
// reflection can do to a value is written once, here.
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
	"time"
)

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

// A Type is a Go type; the zero Type is none. Types are comparable: two
// are equal when they are the same Go type.
type Type struct{ t reflect.Type }

// TypeFor returns the type T.
func TypeFor[T any]() Type { return Type{reflect.TypeFor[T]()} }

var (
	durationType = reflect.TypeFor[time.Duration]()
	timeType     = reflect.TypeFor[time.Time]()
)

// Kind returns what t holds.
func (t Type) Kind() Kind {
	switch {
	case t.t == nil:
		return Other
	case t.t == durationType:
		return Duration
	case t.t == timeType:
		return Time
	}
	switch t.t.Kind() {
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
		if t.t.Elem().Kind() == reflect.Uint8 {
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

// Elem is the type a pointer points to, or the element type of a slice or
// a map; the zero Type for any other.
func (t Type) Elem() Type {
	switch t.Kind() {
	case Pointer, Slice, Bytes, Map:
		return Type{t.t.Elem()}
	}
	return Type{}
}

// Key is the key type of a map; the zero Type for any other.
func (t Type) Key() Type {
	if t.Kind() != Map {
		return Type{}
	}
	return Type{t.t.Key()}
}

// Deref is t with every pointer taken away, and whether there was one.
func (t Type) Deref() (Type, bool) {
	ptr := false
	for t.Kind() == Pointer {
		t, ptr = t.Elem(), true
	}
	return t, ptr
}

func (t Type) String() string {
	if t.t == nil {
		return "<none>"
	}
	return t.t.String()
}

// Vocabulary lists the keys a declaration's tags may use beside json and
// toml (the package doc says what each means).
var Vocabulary = []string{"doc", "min", "max", "ceiling", "default", "enum", "cli", "check"}

// A Tag is a field's struct tag.
type Tag string

// Lookup returns the value of key in the tag, and whether it is there.
func (t Tag) Lookup(key string) (string, bool) { return reflect.StructTag(t).Lookup(key) }

// Get returns the value of key in the tag, "" when it is not there.
func (t Tag) Get(key string) string { return reflect.StructTag(t).Get(key) }

// A Field is one field of a struct type: as FieldByName finds it, or as
// Walk meets it.
type Field struct {
	// GoName is the field's name in Go; Type its type; Tag its tag.
	GoName string
	Type   Type
	Tag    Tag
	// Name is the name the walked tag gives the field; Options are the
	// comma-separated words after it (`toml:"commands,omitempty"` has the
	// name "commands" and the option "omitempty").
	Name    string
	Options []string
	// Path holds the names from the walked type down to the field; Index
	// finds the field in a value of the walked type (Get, Set).
	Path  []string
	Index []int
}

// Has reports whether the field's tag has the option.
func (f Field) Has(option string) bool { return slices.Contains(f.Options, option) }

// FieldByName finds the field of struct type t named name in Go (an
// embedded struct's fields are t's own); its Index is from t.
func (t Type) FieldByName(name string) (Field, bool) {
	if t.Kind() != Struct {
		return Field{}, false
	}
	sf, ok := t.t.FieldByName(name)
	if !ok {
		return Field{}, false
	}
	return Field{GoName: sf.Name, Type: Type{sf.Type}, Tag: Tag(sf.Tag), Index: sf.Index}, true
}

// Walk visits the exported fields of a struct type by tag: each field that
// the tag key names, in the order of the fields, depth first. A field with
// no such tag, or the tag "-", is passed over with everything under it,
// except an embedded struct with no name in the tag, whose fields are
// walked as the outer struct's own. When visit returns true for a field of
// struct type, Walk goes on into that struct's fields.
func Walk(t Type, key string, visit func(Field) bool) {
	walk(t.t, key, false, nil, nil, visit)
}

// JSON walks the fields of a struct type as encoding/json sees them: as
// Walk with the key "json", except that an exported field with no json
// tag is visited too, under its Go name.
func JSON(t Type, visit func(Field) bool) {
	walk(t.t, "json", true, nil, nil, visit)
}

func walk(t reflect.Type, key string, untagged bool, path []string, index []int, visit func(Field) bool) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, ok := sf.Tag.Lookup(key)
		name, opts, _ := strings.Cut(tag, ",")
		at := append(slices.Clone(index), i)
		if sf.Anonymous && name == "" && tag != "-" && sf.Type.Kind() == reflect.Struct {
			walk(sf.Type, key, untagged, path, at, visit)
			continue
		}
		if untagged && !ok && !sf.Anonymous {
			name = sf.Name
		}
		if name == "" || name == "-" || !sf.IsExported() {
			continue
		}
		f := Field{GoName: sf.Name, Type: Type{sf.Type}, Tag: Tag(sf.Tag), Name: name, Path: append(slices.Clone(path), name), Index: at}
		if opts != "" {
			f.Options = strings.Split(opts, ",")
		}
		if visit(f) && (Type{sf.Type}).Kind() == Struct {
			walk(sf.Type, key, untagged, f.Path, f.Index, visit)
		}
	}
}

// New returns a pointer to a new zero value of t.
func New(t Type) any { return reflect.New(t.t).Interface() }

// Deref returns the value ptr points to.
func Deref(ptr any) any { return reflect.ValueOf(ptr).Elem().Interface() }

// structValue is the struct v holds or points to.
func structValue(v any) reflect.Value {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	return rv
}

// Get returns the field at index of the struct v (or of the struct v
// points to) as a plain value: an integer as an int64, a float as a
// float64, a string type as a string; a time.Duration stays one, and any
// other value is returned as it is.
func Get(v any, index []int) any {
	f := structValue(v).FieldByIndex(index)
	switch (Type{f.Type()}).Kind() {
	case Int:
		if f.CanInt() {
			return f.Int()
		}
		return int64(f.Uint())
	case Float:
		return f.Float()
	case String:
		return f.String()
	}
	return f.Interface()
}

// Set sets the field at index of the struct ptr points to to x: an int64
// or int to any integer or float field, a float64 to a float field, a
// string to a field of a string type, and any other value to a field of
// its own type. A value the field cannot hold is an error.
func Set(ptr any, index []int, x any) error {
	f := structValue(ptr).FieldByIndex(index)
	if n, ok := x.(int); ok {
		x = int64(n)
	}
	v := reflect.ValueOf(x)
	switch kind := (Type{f.Type()}).Kind(); {
	case x == nil:
		f.SetZero()
	case kind == Int && v.Kind() == reflect.Int64 && f.CanInt():
		f.SetInt(v.Int())
	case kind == Int && v.Kind() == reflect.Int64 && f.CanUint() && v.Int() >= 0:
		f.SetUint(uint64(v.Int()))
	case kind == Float && (v.Kind() == reflect.Int64 || v.Kind() == reflect.Float64):
		f.SetFloat(v.Convert(f.Type()).Float())
	case kind == String && v.Kind() == reflect.String:
		f.SetString(v.String())
	case v.Type().AssignableTo(f.Type()):
		f.Set(v)
	default:
		return fmt.Errorf("the field is a %s, not a %s", f.Type(), v.Type())
	}
	return nil
}

// IsZero reports whether v is nil or the zero value of its type.
func IsZero(v any) bool { return v == nil || reflect.ValueOf(v).IsZero() }

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// DecodesJSON reports whether a pointer to a value of t decodes itself
// from JSON (a json.Unmarshaler).
func (t Type) DecodesJSON() bool {
	return t.t != nil && reflect.PointerTo(t.t).Implements(jsonUnmarshaler)
}
