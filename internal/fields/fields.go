// Package fields walks the exported fields of a struct type by tag. It is
// the one place that reads struct tags with reflection: the config file's
// keys come from the tags of spillway.Policy, and any other tagged struct
// (a tool's input, say) can be walked the same way.
package fields

import (
	"reflect"
	"slices"
	"strings"
)

// A Field is one field met by Walk.
type Field struct {
	reflect.StructField
	// Name is the name the tag gives the field; Options are the
	// comma-separated words after it (`toml:"commands,omitempty"` has the
	// name "commands" and the option "omitempty").
	Name    string
	Options []string
	// Path holds the names from the walked type down to the field; Index
	// finds the field in a value of the walked type (Value.FieldByIndex).
	Path  []string
	Index []int
}

// Has reports whether the field's tag has the option.
func (f Field) Has(option string) bool { return slices.Contains(f.Options, option) }

// Walk visits the exported fields of a struct type by tag: each field that
// the tag key names, in the order of the fields, depth first. A field with
// no such tag, or the tag "-", is passed over with everything under it,
// except an embedded struct with no name in the tag, whose fields are
// walked as the outer struct's own. When visit returns true for a field of
// struct type, Walk goes on into that struct's fields.
func Walk(t reflect.Type, key string, visit func(Field) bool) {
	walk(t, key, false, nil, nil, visit)
}

// JSON walks the fields of a struct type as encoding/json sees them: as
// Walk with the key "json", except that an exported field with no json
// tag is visited too, under its Go name.
func JSON(t reflect.Type, visit func(Field) bool) {
	walk(t, "json", true, nil, nil, visit)
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
		f := Field{StructField: sf, Name: name, Path: append(slices.Clone(path), name), Index: at}
		if opts != "" {
			f.Options = strings.Split(opts, ",")
		}
		if visit(f) && sf.Type.Kind() == reflect.Struct {
			walk(sf.Type, key, untagged, f.Path, f.Index, visit)
		}
	}
}
