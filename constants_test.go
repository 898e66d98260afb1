package spillway

import (
	"testing"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/render"
)

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
