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
	hidden int    `k:"hidden"` //lint:ignore U1000 an unexported field, which Walk passes over
	Y      []int  `k:"y"`
}

func TestWalk(t *testing.T) {
	var got []string
	Walk(TypeFor[outer](), "k", func(f Field) bool {
		got = append(got, fmt.Sprint(strings.Join(f.Path, "."), f.Index))
		return true
	})
	// The embedded struct's field is outer's own; "-", untagged and
	// unexported fields are passed over.
	want := []string{"e[0 0]", "x[1]", "in[3]", "in.a[3 0]", "y[5]"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWalkIndexAndOptions(t *testing.T) {
	v := outer{Embedded: Embedded{E: "e"}, X: "x", In: inner{A: 7}}
	seen := map[string]any{}
	Walk(TypeFor[outer](), "k", func(f Field) bool {
		seen[strings.Join(f.Path, ".")] = Get(v, f.Index)
		if f.Name == "x" && (!f.Has("opt") || !f.Has("other") || f.Has("k")) {
			t.Errorf("options of x: %q", f.Options)
		}
		return true
	})
	want := map[string]any{"e": "e", "x": "x", "in": inner{A: 7}, "in.a": int64(7), "y": []int(nil)}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("got %v, want %v", seen, want)
	}
	// Not descending: in's fields are not visited.
	var names []string
	Walk(TypeFor[outer](), "k", func(f Field) bool { names = append(names, f.Name); return false })
	if strings.Join(names, ",") != "e,x,in,y" {
		t.Errorf("without descending: %v", names)
	}
}

// JSON visits an untagged exported field under its Go name, as
// encoding/json writes it; Walk does not.
func TestJSONTakesUntaggedFields(t *testing.T) {
	type s struct {
		A      int `json:"a"`
		B      int
		c      int //lint:ignore U1000 unexported: never visited
		D      int `json:"-"`
		Nested inner
	}
	var got []string
	JSON(TypeFor[s](), func(f Field) bool { got = append(got, f.Name); return false })
	if want := []string{"a", "B", "Nested"}; !slices.Equal(got, want) {
		t.Errorf("JSON visited %q, want %q", got, want)
	}
	got = nil
	Walk(TypeFor[s](), "json", func(f Field) bool { got = append(got, f.Name); return false })
	if want := []string{"a"}; !slices.Equal(got, want) {
		t.Errorf("Walk visited %q, want %q", got, want)
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
}

type named string

func TestKinds(t *testing.T) {
	want := map[string]Kind{"N": Int, "U": Int, "F": Float, "D": Duration, "S": String, "B": Bool, "L": Slice,
		"M": Map, "T": Time, "Bytes": Bytes, "P": Pointer}
	for name, kind := range want {
		f, ok := TypeFor[values]().FieldByName(name)
		if !ok || f.Type.Kind() != kind {
			t.Errorf("%s: kind %v, %v; want %v", name, f.Type.Kind(), ok, kind)
		}
	}
	if p, ok := TypeFor[values]().FieldByName("P"); !ok {
		t.Fatal("no P")
	} else if e, ptr := p.Type.Deref(); !ptr || e != TypeFor[inner]() || e.Kind() != Struct {
		t.Errorf("P derefs to %v, %v", e, ptr)
	}
	if (Type{}).Kind() != Other || TypeFor[string]().Elem() != (Type{}) {
		t.Error("the zero Type, or a string's Elem, is something")
	}
	if _, ok := TypeFor[string]().FieldByName("X"); ok {
		t.Error("a string has a field")
	}
}

// Get gives plain values; Set takes them back, converting an integer to
// the field's own integer or float type, and refuses what the field cannot
// hold.
func TestGetAndSet(t *testing.T) {
	var v values
	at := func(name string) []int {
		f, ok := TypeFor[values]().FieldByName(name)
		if !ok {
			t.Fatalf("no field %s", name)
		}
		return f.Index
	}
	for _, set := range []struct {
		field string
		x     any
	}{
		{"N", int64(-3)}, {"U", 7}, {"F", int64(2)}, {"D", 1500 * time.Millisecond}, {"S", "head"},
		{"B", true}, {"L", []string{"a"}}, {"M", map[string][]string{"k": {"v"}}},
	} {
		if err := Set(&v, at(set.field), set.x); err != nil {
			t.Errorf("Set %s = %v: %v", set.field, set.x, err)
		}
	}
	got := map[string]any{}
	for _, name := range []string{"N", "U", "F", "D", "S", "B"} {
		got[name] = Get(v, at(name))
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
		if err := Set(&v, at(bad.field), bad.x); err == nil {
			t.Errorf("Set %s = %#v: no error", bad.field, bad.x)
		}
	}
	if err := Set(&v, at("L"), nil); err != nil || v.L != nil {
		t.Errorf("Set L = nil: %v, %v", err, v.L)
	}
	if p, ok := New(TypeFor[values]()).(*values); !ok || p == nil {
		t.Errorf("New gives %T", New(TypeFor[values]()))
	}
	if !IsZero(nil) || !IsZero(0) || !IsZero("") || IsZero(1) || IsZero([]string{}) {
		t.Error("IsZero")
	}
}
