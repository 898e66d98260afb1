package visible

import (
	"testing"

	"github.com/spillway-dev/spillway/internal/hermetic"
)

// TestMain runs the tests with a HOME, XDG directories, TMPDIR and
// SPILLWAY_* variables of their own, not the person's.
func TestMain(m *testing.M) { hermetic.Main(m) }
