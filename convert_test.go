package spillway

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/internal/shell"
)

// apiTypes pairs each type of the API with the type that implements it.
var apiTypes = []struct{ api, impl reflect.Type }{
	{reflect.TypeFor[BashInput](), reflect.TypeFor[shell.Input]()},
	{reflect.TypeFor[BashProgress](), reflect.TypeFor[shell.Progress]()},
	{reflect.TypeFor[CheckJobInput](), reflect.TypeFor[shell.CheckInput]()},
	{reflect.TypeFor[KillJobInput](), reflect.TypeFor[shell.KillInput]()},
	{reflect.TypeFor[WriteStdinInput](), reflect.TypeFor[shell.WriteInput]()},
	{reflect.TypeFor[BashDetails](), reflect.TypeFor[shell.Details]()},
	{reflect.TypeFor[StreamDetails](), reflect.TypeFor[shell.StreamDetails]()},
	{reflect.TypeFor[Failure](), reflect.TypeFor[shell.Failure]()},
	{reflect.TypeFor[SecretDetails](), reflect.TypeFor[shell.SecretDetails]()},
	{reflect.TypeFor[JobInfo](), reflect.TypeFor[shell.JobInfo]()},
	{reflect.TypeFor[StreamRecord](), reflect.TypeFor[shell.StreamRecord]()},
	{reflect.TypeFor[SessionInfo](), reflect.TypeFor[shell.SessionInfo]()},
	{reflect.TypeFor[HistoryRecord](), reflect.TypeFor[shell.Record]()},
	{reflect.TypeFor[RerenderDetails](), reflect.TypeFor[shell.RenderDetails]()},
	{reflect.TypeFor[ShownStream](), reflect.TypeFor[shell.ShownStream]()},
}

// Each type of the API has the exported fields of its implementation, in
// the same order, with the same json tags and corresponding types: a
// field added, renamed or retagged on one side only fails here.
func TestAPITypesMatchTheirImplementation(t *testing.T) {
	implOf := map[reflect.Type]reflect.Type{}
	for _, p := range apiTypes {
		implOf[p.api] = p.impl
	}
	for _, p := range apiTypes {
		api, impl := exportedFields(p.api), exportedFields(p.impl)
		if len(api) != len(impl) {
			t.Errorf("%s has %d fields, %s %d", p.api, len(api), p.impl, len(impl))
			continue
		}
		for i := range api {
			a, b := api[i], impl[i]
			if a.Name != b.Name || a.Tag.Get("json") != b.Tag.Get("json") {
				t.Errorf("%s field %d is %s `%s`, %s's %s `%s`", p.api, i, a.Name, a.Tag, p.impl, b.Name, b.Tag)
			}
			if !corresponds(a.Type, b.Type, implOf) {
				t.Errorf("%s.%s is a %s, %s's a %s", p.api, a.Name, a.Type, p.impl, b.Type)
			}
		}
	}
}

func exportedFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		if f.IsExported() {
			out = append(out, f)
		}
	}
	return out
}

// corresponds reports whether an API field's type is the implementation's,
// or the API's type of it.
func corresponds(api, impl reflect.Type, implOf map[reflect.Type]reflect.Type) bool {
	if api == impl || implOf[api] == impl {
		return true
	}
	if api.Kind() != impl.Kind() {
		return false
	}
	switch api.Kind() {
	case reflect.Pointer, reflect.Slice:
		return corresponds(api.Elem(), impl.Elem(), implOf)
	case reflect.Func:
		if api.NumIn() != impl.NumIn() || api.NumOut() != impl.NumOut() {
			return false
		}
		for i := range api.NumIn() {
			if !corresponds(api.In(i), impl.In(i), implOf) {
				return false
			}
		}
		for i := range api.NumOut() {
			if !corresponds(api.Out(i), impl.Out(i), implOf) {
				return false
			}
		}
		return true
	}
	return false
}

// The conversions written out field by field carry every field: each is
// given a value with every field set and must hand all of it on.
func TestConversionsCarryEveryField(t *testing.T) {
	check := func(name string, from any, convert func(any) any) {
		t.Helper()
		src := reflect.New(reflect.TypeOf(from)).Elem()
		n := 0
		fill(src, &n)
		dst := reflect.ValueOf(convert(src.Interface()))
		if err := sameFields(src, dst, name); err != nil {
			t.Error(err)
		}
	}
	check("BashInput.impl", BashInput{}, func(x any) any { return x.(BashInput).impl() })
	check("newBashResult", shell.Result{}, func(x any) any { return newBashResult(x.(shell.Result)) })
	check("newHistoryRecords", []shell.Record{}, func(x any) any { return newHistoryRecords(x.([]shell.Record)) })
	check("newRerenderResult", shell.RenderResult{}, func(x any) any { return newRerenderResult(x.(shell.RenderResult)) })
	check("newJobInfos", []shell.JobInfo{}, func(x any) any { return newJobInfos(x.([]shell.JobInfo)) })
	check("newSessionInfos", []shell.SessionInfo{}, func(x any) any { return newSessionInfos(x.([]shell.SessionInfo)) })

	var got BashProgress
	in := BashInput{Progress: func(p BashProgress) { got = p }}
	in.impl().Progress(shell.Progress{Bytes: 3, Lines: 4})
	if got != (BashProgress{Bytes: 3, Lines: 4}) {
		t.Errorf("BashInput.Progress received %+v, want {3 4}", got)
	}
	if (BashInput{}).impl().Progress != nil {
		t.Error("BashInput without Progress gives the shell a Progress")
	}
}

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

// sameFields reports the first value under src that dst does not hold,
// matching fields by name across the API's types and the implementation's.
func sameFields(src, dst reflect.Value, path string) error {
	if src.Type() == dst.Type() {
		if src.Kind() == reflect.Func || reflect.DeepEqual(src.Interface(), dst.Interface()) {
			return nil
		}
		return fmt.Errorf("%s: %v became %v", path, src, dst)
	}
	if src.Kind() != dst.Kind() {
		return fmt.Errorf("%s: a %s became a %s", path, src.Type(), dst.Type())
	}
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() != dst.IsNil() {
			return fmt.Errorf("%s: nil %v became nil %v", path, src.IsNil(), dst.IsNil())
		}
		if src.IsNil() {
			return nil
		}
		return sameFields(src.Elem(), dst.Elem(), path)
	case reflect.Slice:
		if src.Len() != dst.Len() {
			return fmt.Errorf("%s: %d items became %d", path, src.Len(), dst.Len())
		}
		for i := range src.Len() {
			if err := sameFields(src.Index(i), dst.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Func:
		if src.IsNil() != dst.IsNil() {
			return fmt.Errorf("%s: nil %v became nil %v", path, src.IsNil(), dst.IsNil())
		}
	case reflect.Struct:
		for _, f := range exportedFields(src.Type()) {
			g, ok := dst.Type().FieldByName(f.Name)
			if !ok {
				return fmt.Errorf("%s: %s has no field %s", path, dst.Type(), f.Name)
			}
			if err := sameFields(src.FieldByIndex(f.Index), dst.FieldByIndex(g.Index), path+"."+f.Name); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%s: cannot compare a %s with a %s", path, src.Type(), dst.Type())
	}
	return nil
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
