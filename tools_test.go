package spillway

import (
	"reflect"
	"slices"
	"testing"

	"github.com/spillway-dev/spillway/internal/registry"
)

// Every field of a method's Go input is a parameter of the table that
// applies to that method, and every such parameter has its field: adding a
// parameter to one and not the other fails here.
func TestToolsTableMatchesTheGoInputs(t *testing.T) {
	for _, tool := range registry.Tools[Policy]() {
		// Methods may share an input (history's listing and its id call):
		// its fields are then the parameters of all of them.
		want := map[reflect.Type][]string{}
		for _, m := range []registry.Method{registry.Run, registry.CheckJob, registry.KillJob, registry.Rerender} {
			var names []string
			for _, p := range tool.Params {
				if p.AppliesTo(m) {
					names = append(names, p.Name)
				}
			}
			in := tool.Inputs[m]
			if in == nil {
				if len(names) > 0 {
					t.Errorf("%s %s: parameters %v but no Go input", tool.Name, m, names)
				}
				continue
			}
			for _, n := range names {
				if !slices.Contains(want[in], n) {
					want[in] = append(want[in], n)
				}
			}
		}
		for in, names := range want {
			got := registry.ParamNames(in)
			slices.Sort(got)
			slices.Sort(names)
			if !slices.Equal(got, names) {
				t.Errorf("%s: %s has fields %v, the table %v", tool.Name, in, got, names)
			}
		}
		if tool.Describe == nil || tool.Details == nil || tool.Title == "" {
			t.Errorf("%s: description, details or title missing", tool.Name)
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
}
