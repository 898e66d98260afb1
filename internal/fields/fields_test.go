package fields

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

type inner struct {
	A int `k:"a"`
	B int
}

type Embedded struct {
	E string `k:"e"`
}

type outer struct {
	Embedded
	X      string `k:"x,opt,other"`
	Skip   int    `k:"-"`
	In     inner  `k:"in"`
	hidden int    `k:"hidden"` //lint:ignore U1000 an unexported field, which Of passes over
	Y      []int  `k:"y"`
}

// all lists the fields of t and of its struct fields, depth first.
func all(fs []Field) []Field {
	var out []Field
	for _, f := range fs {
		out = append(out, f)
		out = append(out, all(f.Type.Fields)...)
	}
	return out
}

func TestOf(t *testing.T) {
	var got []string
	for _, f := range all(Of[outer]("k").Fields) {
		got = append(got, fmt.Sprint(strings.Join(f.Path, "."), f.index))
	}
	// The embedded struct's field is outer's own; "-", untagged and
	// unexported fields are passed over.
	want := []string{"e[0 0]", "x[1]", "in[3]", "in.a[3 0]", "y[5]"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestGetAndOptions(t *testing.T) {
	v := outer{Embedded: Embedded{E: "e"}, X: "x", In: inner{A: 7}}
	seen := map[string]any{}
	for _, f := range all(Of[outer]("k").Fields) {
		seen[strings.Join(f.Path, ".")] = f.Get(v)
		if f.Name == "x" && (!f.Has("opt") || !f.Has("other") || f.Has("k")) {
			t.Errorf("options of x: %q", f.Options)
		}
	}
	want := map[string]any{"e": "e", "x": "x", "in": inner{A: 7}, "in.a": int64(7), "y": []int(nil)}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("got %v, want %v", seen, want)
	}
}

// Under json, an untagged exported field is there under its Go name, as
// encoding/json writes it; its Tag("json") says it has no tag.
func TestJSONTakesUntaggedFields(t *testing.T) {
	type s struct {
		A      int `json:"a"`
		B      int
		c      int //lint:ignore U1000 unexported: never described
		D      int `json:"-"`
		Nested inner
	}
	var got, tagged []string
	for _, f := range Of[s]("json").Fields {
		got = append(got, f.Name)
		if _, ok := f.Tag("json"); ok {
			tagged = append(tagged, f.Name)
		}
	}
	if want := []string{"a", "B", "Nested"}; !slices.Equal(got, want) {
		t.Errorf("json described %q, want %q", got, want)
	}
	if want := []string{"a"}; !slices.Equal(tagged, want) {
		t.Errorf("tagged %q, want %q", tagged, want)
	}
}

type values struct {
	N     int
	U     uint16
	F     float64
	D     time.Duration
	S     named
	B     bool
	L     []string
	M     map[string][]string
	T     time.Time
	Bytes []byte
	P     *inner
	Self  *values
}

type named string

type decoding string

func (d *decoding) UnmarshalJSON([]byte) error { return nil }

func field(t *testing.T, name string) Field {
	t.Helper()
	for _, f := range Of[values]("json").Fields {
		if f.GoName == name {
			return f
		}
	}
	t.Fatalf("no field %s", name)
	return Field{}
}

func TestKinds(t *testing.T) {
	want := map[string]Kind{"N": Int, "U": Int, "F": Float, "D": Duration, "S": String, "B": Bool, "L": Slice,
		"M": Map, "T": Time, "Bytes": Bytes, "P": Pointer}
	for name, kind := range want {
		if f := field(t, name); f.Type.Kind != kind {
			t.Errorf("%s: kind %v; want %v", name, f.Type.Kind, kind)
		}
	}
	p := field(t, "P")
	if e, ptr := p.Type.Deref(); !ptr || e.Name != "fields.inner" || e.Kind != Struct || len(e.Fields) != 2 {
		t.Errorf("P derefs to %+v, %v", e, ptr)
	}
	if m := field(t, "M").Type; m.Key.Kind != String || m.Elem.Kind != Slice || m.Elem.Elem.Kind != String {
		t.Errorf("M: %+v", m)
	}
	// A type that holds itself ends at the second sight of it.
	if self, _ := field(t, "Self").Type.Deref(); self.Name != "fields.values" || self.Fields != nil {
		t.Errorf("Self derefs to %s with %d fields", self.Name, len(self.Fields))
	}
	if Of[named]("json").DecodesJSON || !Of[decoding]("json").DecodesJSON {
		t.Error("DecodesJSON: a string type with UnmarshalJSON decodes itself, a plain one does not")
	}
}

// Get gives plain values; Set takes them back, converting an integer to
// the field's own integer or float type, and refuses what the field cannot
// hold.
func TestGetAndSet(t *testing.T) {
	var v values
	for _, set := range []struct {
		field string
		x     any
	}{
		{"N", int64(-3)}, {"U", 7}, {"F", int64(2)}, {"D", 1500 * time.Millisecond}, {"S", "head"},
		{"B", true}, {"L", []string{"a"}}, {"M", map[string][]string{"k": {"v"}}},
	} {
		if err := field(t, set.field).Set(&v, set.x); err != nil {
			t.Errorf("Set %s = %v: %v", set.field, set.x, err)
		}
	}
	got := map[string]any{}
	for _, name := range []string{"N", "U", "F", "D", "S", "B"} {
		got[name] = field(t, name).Get(v)
	}
	want := map[string]any{"N": int64(-3), "U": int64(7), "F": 2.0, "D": 1500 * time.Millisecond, "S": "head", "B": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Get: %v, want %v", got, want)
	}
	if v.S != "head" || len(v.L) != 1 || v.M["k"][0] != "v" {
		t.Errorf("set: %+v", v)
	}
	for _, bad := range []struct {
		field string
		x     any
	}{{"N", "1"}, {"D", int64(5)}, {"S", 1}, {"L", []int{1}}, {"U", int64(-1)}} {
		if err := field(t, bad.field).Set(&v, bad.x); err == nil {
			t.Errorf("Set %s = %#v: no error", bad.field, bad.x)
		}
	}
	if err := field(t, "L").Set(&v, nil); err != nil || v.L != nil || !field(t, "L").Zero(v) || field(t, "N").Zero(v) {
		t.Errorf("Set L = nil: %v, %v", err, v.L)
	}
	x, err := field(t, "M").FromJSON([]byte(`{"a": ["b"]}`))
	if m, ok := x.(map[string][]string); err != nil || !ok || m["a"][0] != "b" {
		t.Errorf("FromJSON: %#v, %v", x, err)
	}
	if _, err := field(t, "M").FromJSON([]byte(`[1]`)); err == nil {
		t.Error("FromJSON of a list into a map: no error")
	}
}
