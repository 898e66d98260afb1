package spillway_test

import (
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/hermetic"
)

// sandboxSuiteEnv runs the bash lifecycle suite with every command under
// the sandbox: SPILLWAY_TEST_SANDBOX=1 (or =no-network) go test -run Bash .
const sandboxSuiteEnv = "SPILLWAY_TEST_SANDBOX"

// TestMain lets the test binary act as the sandbox helper and the
// parent-death watcher.
func TestMain(m *testing.M) {
	spillway.MaybeRunSandboxHelper()
	hermetic.Main(m)
}
