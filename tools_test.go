package spillway

import (
	"reflect"
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
	var names []string
	for _, p := range bash.Params {
		names = append(names, p.Name)
	}
	want := []string{"command", "args", "session", "timeout", "run_in_background", "cwd", "env", "max_lines", "max_bytes",
		"max_tokens", "full_output", "check_pid", "kill_pid", "tty", "cols", "rows", "screen", "stdin", "diff_with"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("bash's parameters are listed\n%v, want\n%v (a job method's after tag places it)", names, want)
	}
}
