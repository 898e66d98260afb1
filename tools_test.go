package spillway

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/output"
)

// Every field of a tool's Go inputs and details is declared by its tags:
// a parameter has a doc tag and a type the tools take, and every field of
// a details type has a doc tag. Adding a field without its
// doc fails here.
func TestEveryFieldIsDeclaredByItsTags(t *testing.T) {
	for _, e := range table {
		tool := e.declaration()
		if tool.Describe == nil || tool.Details().Kind != fields.Struct || tool.Title == "" {
			t.Errorf("%s: description, details or title missing", tool.Name)
		}
		for _, f := range tool.Input.Fields {
			if doc, _ := f.Tag("doc"); doc == "" {
				t.Errorf("%s: %s.%s (%s) has no doc tag", tool.Name, tool.Input, f.GoName, f.Name)
			}
		}
		for _, p := range tool.Params {
			if p.Doc == "" || p.Type == 0 {
				t.Errorf("%s.%s: no doc or type", tool.Name, p.Name)
			}
			if p.Positional && p.Short != "" {
				t.Errorf("%s.%s: an argument has no short flag", tool.Name, p.Name)
			}
		}
	}
	// The fields of a details type, as the output schemas and
	// docs/tools.md list them (the objects nested in them are described
	// as a whole).
	top := func(ty fields.Type) {
		for _, f := range ty.Fields {
			if _, tagged := f.Tag("json"); !tagged {
				continue
			}
			if doc, _ := f.Tag("doc"); doc == "" {
				t.Errorf("details: %s.%s (%s) has no doc tag", ty, f.GoName, f.Name)
			}
		}
	}
	for _, tool := range registry.Tools() {
		top(tool.Details())
	}
	top(fields.Of[output.Truncation]("json"))
}

// A tool is one input: bash's parameters are BashInput's json fields, in
// their order, check_pid, kill_pid and screen among them. The test names
// no other parameter, so that adding one to BashInput does not rewrite it.
func TestBashIsOneInput(t *testing.T) {
	bash, ok := registry.Lookup("bash")
	if !ok {
		t.Fatal("no bash tool")
	}
	var names []string
	for f := range reflect.TypeFor[BashInput]().Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	var params []string
	for _, p := range bash.Params {
		params = append(params, p.Name)
	}
	if !slices.Equal(names, params) {
		t.Errorf("bash's parameters are %v, BashInput's fields %v", params, names)
	}
	for _, want := range []string{"command", "check_pid", "kill_pid", "screen"} {
		if !slices.Contains(params, want) {
			t.Errorf("bash has no %s", want)
		}
	}
	timeout, _ := bash.Param("timeout")
	if timeout.Config != "timeout_ms" || timeout.Default(DefaultPolicy()) != int(DefaultPolicy().Timeout.Milliseconds()) {
		t.Errorf("timeout: config %q, default %v", timeout.Config, timeout.Default(DefaultPolicy()))
	}
}

// What docs/tools.md says of bash's job calls is what the check holds a
// call to: check_pid takes timeout and screen and nothing else of a
// command's, kill_pid nothing, and a command no screen. Every other
// parameter is given in turn, by reflection, so that a parameter added
// to BashInput is covered without naming it here.
func TestBashJobCallsTakeWhatTheDocsSay(t *testing.T) {
	bash, _ := registry.Lookup("bash")
	if !strings.Contains(bash.Notes, "`check_pid` calls `Toolset.CheckJob` and takes `timeout`, `screen`.") ||
		!strings.Contains(bash.Notes, "`kill_pid` calls `Toolset.KillJob` and takes nothing else.") {
		t.Fatalf("bash's notes changed: %q", bash.Notes)
	}
	if err := (BashInput{CheckPID: 7, Timeout: time.Second, Screen: "full"}).Validate(); err != nil {
		t.Errorf("check_pid with timeout and screen: %v", err)
	}
	set := func(name string) BashInput {
		in := BashInput{}
		v := reflect.ValueOf(&in).Elem()
		for i := range v.NumField() {
			if tag, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ","); tag == name {
				f := v.Field(i)
				switch f.Kind() {
				case reflect.String:
					f.SetString("x")
				case reflect.Bool:
					f.SetBool(true)
				case reflect.Int, reflect.Int64:
					f.SetInt(1)
				case reflect.Slice:
					f.Set(reflect.ValueOf([]string{"x"}))
				case reflect.Map:
					f.Set(reflect.ValueOf(map[string]string{"X": "1"}))
				default:
					t.Fatalf("%s: a %s", name, f.Kind())
				}
			}
		}
		return in
	}
	for _, p := range bash.Params {
		if p.Name == "check_pid" || p.Name == "kill_pid" {
			continue
		}
		in := set(p.Name)
		in.CheckPID = 7
		if err := in.Validate(); (err == nil) != (p.Name == "timeout" || p.Name == "screen") {
			t.Errorf("check_pid with %s: %v", p.Name, err)
		}
		in.CheckPID, in.KillPID = 0, 7
		if err := in.Validate(); err == nil {
			t.Errorf("kill_pid with %s: no error", p.Name)
		}
	}
	if err := (BashInput{Command: "ls", Screen: "full"}).Validate(); err == nil {
		t.Error("a command with screen: no error")
	}
	for _, in := range []BashInput{{}, {Command: "ls", CheckPID: 7}, {CheckPID: 7, KillPID: 7}} {
		if err := in.Validate(); err == nil || !strings.Contains(err.Error(), "exactly one of command") {
			t.Errorf("%+v: %v", in, err)
		}
	}
}
