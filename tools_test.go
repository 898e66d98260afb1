package spillway

import (
	"slices"
	"testing"

	"github.com/spillway-dev/spillway/internal/registry"
)

// Every field of a method's Go input is a parameter of the table that
// applies to that method, and every such parameter has its field: adding a
// parameter to one and not the other fails here.
func TestToolsTableMatchesTheGoInputs(t *testing.T) {
	for _, tool := range registry.Tools[Policy]() {
		for _, m := range []registry.Method{registry.Run, registry.CheckJob, registry.KillJob, registry.Rerender} {
			var want []string
			for _, p := range tool.Params {
				if p.AppliesTo(m) {
					want = append(want, p.Name)
				}
			}
			in := tool.Inputs[m]
			if in == nil {
				if len(want) > 0 {
					t.Errorf("%s %s: parameters %v but no Go input", tool.Name, m, want)
				}
				continue
			}
			got := registry.ParamNames(in)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: %s has fields %v, the table %v", tool.Name, m, in, got, want)
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
