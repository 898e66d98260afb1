package rules

import (
	"testing"

	"github.com/spillway-dev/spillway/internal/hermetic"
	"github.com/spillway-dev/spillway/internal/sandbox"
)

// TestMain runs the tests with a HOME, XDG directories, TMPDIR and
// SPILLWAY_* variables of their own, not the person's.
// MaybeRunHelper first: the differential fuzz test runs commands in
// spillway's sandbox, whose helper is this binary started again.
func TestMain(m *testing.M) {
	sandbox.MaybeRunHelper()
	hermetic.Main(m)
}
