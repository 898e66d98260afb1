package spillway

import (
	"reflect"
	"strings"
	"testing"

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
		if tool.Describe == nil || tool.Details == (fields.Type{}) || tool.Title == "" {
			t.Errorf("%s: description, details or title missing", tool.Name)
		}
		for m, in := range tool.Inputs {
			fields.Walk(in, "json", func(f fields.Field) bool {
				if f.Tag.Get("doc") == "" {
					t.Errorf("%s %s: %s.%s (%s) has no doc tag", tool.Name, m, in, f.GoName, f.Name)
				}
				return false
			})
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
		fields.Walk(ty, "json", func(f fields.Field) bool {
			if f.Tag.Get("doc") == "" {
				t.Errorf("details: %s.%s (%s) has no doc tag", ty, f.GoName, f.Name)
			}
			return false
		})
	}
	for _, tool := range registry.Tools() {
		top(tool.Details)
	}
	top(fields.TypeFor[output.Truncation]())
}

// A parameter two methods take (bash's timeout: the command's, and
// check_pid's wait) is declared once, by the first method's input; the
// other adds its doc and its method.
func TestASharedParameterIsDeclaredOnce(t *testing.T) {
	bash, ok := registry.Lookup("bash")
	if !ok {
		t.Fatal("no bash tool")
	}
	timeout, ok := bash.Param("timeout")
	if !ok {
		t.Fatal("bash has no timeout")
	}
	if !timeout.AppliesTo(registry.Run) || !timeout.AppliesTo(registry.CheckJob) || timeout.AppliesTo(registry.KillJob) {
		t.Errorf("timeout goes to %v, want Run and CheckJob", timeout.Methods)
	}
	if timeout.Config != "timeout_ms" || timeout.Default(DefaultPolicy()) != int(DefaultPolicy().Timeout.Milliseconds()) {
		t.Errorf("timeout: config %q, default %v", timeout.Config, timeout.Default(DefaultPolicy()))
	}
	// Each parameter is listed once: BashInput's fields in their order,
	// and the job methods' own where their after tags place them. The
	// test names no other parameter, so that adding one to BashInput
	// does not rewrite it.
	pos := map[string]int{}
	for i, p := range bash.Params {
		if _, twice := pos[p.Name]; twice {
			t.Errorf("bash lists %q twice", p.Name)
		}
		pos[p.Name] = i
	}
	for name, after := range map[string]string{"check_pid": "full_output", "kill_pid": "check_pid", "screen": "rows"} {
		i, ok := pos[name]
		if j, ok2 := pos[after]; !ok || !ok2 || i != j+1 {
			t.Errorf("%s is parameter %d and %s %d: want it right after", name, i, after, j)
		}
	}
	last, n := -1, 0
	for f := range reflect.TypeFor[BashInput]().Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		n++
		i, ok := pos[name]
		if !ok {
			t.Errorf("BashInput.%s (%s) is not a bash parameter", f.Name, name)
			continue
		}
		if i < last {
			t.Errorf("bash lists %s before a field BashInput declares before it", name)
		}
		last = i
	}
	if n+3 != len(bash.Params) {
		t.Errorf("bash has %d parameters: BashInput's %d and the job methods' 3", len(bash.Params), n)
	}
}
