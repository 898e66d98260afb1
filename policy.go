package spillway

import (
	"github.com/spillway-dev/spillway/internal/policy"
)

// Types of the policy: the limits a toolset applies, per tool and per
// stream. A Policy is plain data; start from DefaultPolicy or Profile and
// change what you need.
type (
	// Policy is the whole set of limits: Shell, the default bash
	// Timeout, Spill, and one policy per tool.
	Policy = policy.Policy
	// BashPolicy limits each stream of a bash result (Stdout, Stderr are
	// output.Limits), whether they merge, and when they spill.
	BashPolicy = policy.Bash
	// ReadPolicy limits a read: MaxLines, MaxBytes, MaxLineChars.
	ReadPolicy = policy.Read
	// GrepPolicy limits a grep: Limit (matches), MaxBytes, MaxLineChars.
	GrepPolicy = policy.Grep
	// FindPolicy limits a find: Limit (results), MaxBytes.
	FindPolicy = policy.Find
	// LsPolicy limits an ls: Limit (entries), MaxBytes.
	LsPolicy = policy.Ls
	// SpillPolicy says where spill files go (Dir), the cap of one file
	// (MaxBytes) and of a session's files (BudgetBytes).
	SpillPolicy = policy.Spill
)

// Hard ceilings that no policy or call can pass.
const (
	// StreamCeiling bounds one stream of a result, in bytes (1 MiB).
	StreamCeiling = 1 << 20
	// LinesCeiling bounds every line or entry limit.
	LinesCeiling = 100_000
)

// DefaultPolicy returns the default limits (profile "default").
func DefaultPolicy() Policy { return policy.Default() }

// Profile returns the policy of a named profile: the truncation behaviour
// of another agent harness (see ProfileNames and docs/profiles.md).
func Profile(name string) (Policy, error) { return policy.Profile(name) }

// ProfileNames lists the profiles, "default" first.
func ProfileNames() []string { return policy.ProfileNames() }
