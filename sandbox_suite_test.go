package spillway_test

import (
	"os"
	"testing"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

// sandboxSuiteEnv runs the bash lifecycle suite with every command under
// the sandbox: SPILLWAY_TEST_SANDBOX=1 (or =no-network) go test -run Bash .
const sandboxSuiteEnv = "SPILLWAY_TEST_SANDBOX"

// TestMain lets the test binary act as the sandbox helper.
func TestMain(m *testing.M) {
	sandbox.MaybeRunHelper()
	os.Exit(m.Run())
}
