package fields

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
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
	Walk(reflect.TypeFor[outer](), "k", func(f Field) bool {
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
	Walk(reflect.TypeFor[outer](), "k", func(f Field) bool {
		seen[strings.Join(f.Path, ".")] = reflect.ValueOf(v).FieldByIndex(f.Index).Interface()
		if f.Name == "x" && (!f.Has("opt") || !f.Has("other") || f.Has("k")) {
			t.Errorf("options of x: %q", f.Options)
		}
		return true
	})
	want := map[string]any{"e": "e", "x": "x", "in": inner{A: 7}, "in.a": 7, "y": []int(nil)}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("got %v, want %v", seen, want)
	}
	// Not descending: in's fields are not visited.
	var names []string
	Walk(reflect.TypeFor[outer](), "k", func(f Field) bool { names = append(names, f.Name); return false })
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
	JSON(reflect.TypeFor[s](), func(f Field) bool { got = append(got, f.Name); return false })
	if want := []string{"a", "B", "Nested"}; !slices.Equal(got, want) {
		t.Errorf("JSON visited %q, want %q", got, want)
	}
	got = nil
	Walk(reflect.TypeFor[s](), "json", func(f Field) bool { got = append(got, f.Name); return false })
	if want := []string{"a"}; !slices.Equal(got, want) {
		t.Errorf("Walk visited %q, want %q", got, want)
	}
}
