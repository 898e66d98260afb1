package shell

import (
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
)

// defaultConfig is what spillway.DefaultPolicy gives a Runner, in a test
// directory of its own.
func defaultConfig(t *testing.T) Config {
	return Config{
		Cwd:          t.TempDir(),
		Shell:        "bash",
		Timeout:      policy.DefaultTimeout,
		ResultBudget: policy.DefaultResultBudget,
		Stdout:       output.DefaultLimits,
		Stderr:       output.DefaultLimits,
		MaxProcesses: policy.DefaultMaxProcesses,
		CacheTTL:     30 * time.Second,
	}
}

// defaultStore is the spill store's configuration under the default
// policy.
func defaultStore() spill.Config {
	return spill.Config{MaxFileBytes: spill.DefaultMaxFileBytes, BudgetBytes: spill.DefaultBudgetBytes, KeepNamed: spill.DefaultKeepNamed}
}
