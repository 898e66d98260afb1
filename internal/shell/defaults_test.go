package shell

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// defaultConfig is what spillway.DefaultPolicy gives a Runner, in a test
// directory of its own.
func defaultConfig(t *testing.T) Config {
	return Config{
		Cwd:          t.TempDir(),
		Shell:        "bash",
		Timeout:      policy.DefaultTimeout,
		ResultBudget: policy.DefaultResultBudget,
		Bash:         tool.BashPolicy{Stdout: output.DefaultLimits, Stderr: output.DefaultLimits, MaxProcesses: policy.DefaultMaxProcesses},
		CacheTTL:     30 * time.Second,
		Render:       testRender,
	}
}

// testRender stands in for the module root's renderer, which the tests
// here cannot import: each stream under its label with its notice, the
// empty word, the status and the notes, a line each. Enough to find in a
// result what its page held and to measure it against the budget; the
// layout itself is tested in the root.
func testRender(p Page) string {
	lines := slices.Clone(p.Lead)
	streams := map[string]*output.Result{"stdout": &p.Stdout, "stderr": p.Stderr}
	for _, label := range []string{"stdout", "stderr"} {
		r := streams[label]
		switch {
		case label == "stdout" && p.Screen != "":
			lines = append(lines, p.Screen)
		case r != nil && r.Text()+r.Notice(label) != "":
			lines = append(lines, label+":", strings.TrimSuffix(r.Text(), "\n"), r.Notice(label))
		}
	}
	if len(lines) == len(p.Lead) {
		lines = append(lines, p.Empty)
	}
	if p.Exit != nil {
		lines = append(lines, p.Exit.String())
	}
	return strings.Join(append(lines, p.Notes...), "\n")
}

// defaultStore is the spill store's configuration under the default
// policy.
func defaultStore() spill.Config {
	return spill.Config{MaxFileBytes: spill.DefaultMaxFileBytes, BudgetBytes: spill.DefaultBudgetBytes, KeepNamed: spill.DefaultKeepNamed}
}
