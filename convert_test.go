package spillway

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/render"
)

// fill sets every exported field under v to a value of its own, not zero.
func fill(v reflect.Value, n *int) {
	*n++
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Unix(int64(*n), 0)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprint("s", *n))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint8:
		v.SetUint(uint64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) / 1000)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, n)
		fill(e, n)
		v.SetMapIndex(k, e)
	case reflect.Interface:
		v.Set(reflect.ValueOf(*n))
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	case reflect.Func:
		// Callbacks are checked on their own.
	default:
		panic("fill: no value for a " + v.Type().String())
	}
}

// The API's constants state their values; these are the values the
// implementation uses.
func TestAPIConstantsAreTheImplementations(t *testing.T) {
	for _, c := range []struct {
		name      string
		api, impl any
	}{
		{"streamCeiling", streamCeiling, policy.StreamCeiling},
		{"linesCeiling", linesCeiling, policy.LinesCeiling},
		{"FormatText", render.Format(FormatText), render.FormatText},
		{"FormatJSON", render.Format(FormatJSON), render.FormatJSON},
	} {
		if c.api != c.impl {
			t.Errorf("%s is %v, the implementation's %v", c.name, c.api, c.impl)
		}
	}
}
