package spillway

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/output"
)

// A call shown again hands on everything the shell says of what it
// showed: given a Shown with every field set, every field of the
// ShownStream is set too.
func TestRerenderedSetsEveryField(t *testing.T) {
	var rec HistoryRecord
	setAll(reflect.ValueOf(&rec).Elem())
	var shown shell.Shown
	setAll(reflect.ValueOf(&shown).Elem())
	shown.Empty, shown.Err = false, nil
	rr := rerendered(rec, shell.Exit{Code: 2}, &shown, &shell.Shown{Err: errors.New("gone")})
	if err := unset(reflect.ValueOf(*rr.Details.Shown.Stdout), "ShownStream"); err != nil {
		t.Error(err)
	}
	if !rr.IsError || !strings.Contains(rr.Text, "stdout:\nx\nstderr:\n[stderr: gone]\n\nexit code: 2\n[history 7000000000: \"x x\", run ") {
		t.Errorf("rerender: error %v, text %q", rr.IsError, rr.Text)
	}
}

// A bash result hands on everything the shell's outcome says and adds
// what its windows say: from an outcome with every field set but those
// the root derives, every field of the result is set, but for the failure
// lines of a diff, which are not the command's.
func TestBashResultSetsEveryField(t *testing.T) {
	var o shell.Outcome
	setAll(reflect.ValueOf(&o).Elem())
	o.Details.Stdout, o.Details.Stderr, o.Details.Failures = StreamDetails{}, StreamDetails{}, nil
	res := bashResult(o)
	for _, sd := range []*StreamDetails{&res.Details.Stdout, &res.Details.Stderr} {
		// Next is the window's own (output.Result.Next), which a window
		// filled field by field has none of.
		if sd.Next == nil {
			sd.Next = []output.Call{{}}
		}
	}
	if err := unset(reflect.ValueOf(res.Details), "BashDetails"); err == nil || err.Error() != "BashDetails.Failures is not set" {
		t.Errorf("a diff: %v, want only Failures unset", err)
	}
	if res.Text != o.Text || !res.IsError || res.Content != o.Screen || res.Details.Stderr.Shown != o.Stderr.Text() || res.Details.Secret != o.Details.Secret {
		t.Errorf("text %q, error %v, content %q, stderr %q, secret %+v", res.Text, res.IsError, res.Content, res.Details.Stderr.Shown, res.Details.Secret)
	}
	o.Details.DiffWith = 0
	f := bashResult(o).Details.Failures
	if len(f) != 2 || f[0].Stream != "stdout" || f[1].Stream != "stderr" || f[0].Line == 0 || f[0].Text == "" {
		t.Errorf("failures: %+v", f)
	}
}

// setAll gives every exported field under v a value that is not zero.
func setAll(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(1, 0)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				setAll(v.Field(i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		setAll(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		setAll(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		setAll(k)
		setAll(e)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(7e9) // seconds, as durations
	case reflect.Func, reflect.Interface:
		// Callbacks and errors are checked on their own.
	default:
		panic("setAll: no value for a " + v.Type().String())
	}
}

// unset names the first exported field under v that is zero.
func unset(v reflect.Value, path string) error {
	if v.Kind() == reflect.Struct && v.Type() != reflect.TypeFor[time.Time]() {
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				if err := unset(v.Field(i), path+"."+f.Name); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if v.IsZero() {
		return fmt.Errorf("%s is not set", path)
	}
	return nil
}
