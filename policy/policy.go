// Package policy holds spillway's limits: per tool and per stream, the
// strategy and the limits that the output pipeline enforces.
package policy

import (
	"github.com/spillway-dev/spillway/output"
)

// Hard ceilings that per-call parameters cannot pass.
const (
	// StreamCeiling bounds one stream of a result, whatever was asked
	// (full_output, max_bytes).
	StreamCeiling = 1 << 20
	// LinesCeiling bounds max_lines and limit parameters.
	LinesCeiling = 100_000
)

// Bash is the policy of the bash tool.
type Bash struct {
	Stdout, Stderr output.Limits
	// MergeStreams sends stderr into stdout in order of arrival.
	MergeStreams bool
	SpillWhen    output.SpillWhen
}

// Read is the policy of the read tool.
type Read struct {
	MaxLines, MaxBytes, MaxLineChars int
}

// Grep is the policy of the grep tool.
type Grep struct {
	Limit, MaxBytes, MaxLineChars int
}

// Find is the policy of the find tool.
type Find struct {
	Limit, MaxBytes int
}

// Ls is the policy of the ls tool.
type Ls struct {
	Limit, MaxBytes int
}

// Policy is the whole set of limits a toolset applies.
type Policy struct {
	Shell     string
	TimeoutMS int
	Bash      Bash
	Read      Read
	Grep      Grep
	Find      Find
	Ls        Ls
}

// Default returns the SPEC's defaults.
func Default() Policy {
	return Policy{
		Shell:     "bash",
		TimeoutMS: 120_000,
		Bash: Bash{
			Stdout: output.DefaultLimits,
			Stderr: output.DefaultLimits,
		},
		Read: Read{MaxLines: 2000, MaxBytes: 50 * 1024, MaxLineChars: 2000},
		Grep: Grep{Limit: 100, MaxBytes: 50 * 1024, MaxLineChars: 500},
		Find: Find{Limit: 1000, MaxBytes: 50 * 1024},
		Ls:   Ls{Limit: 500, MaxBytes: 50 * 1024},
	}
}

// Cap holds a per-call value to its ceiling; zero or less means "not given"
// and yields def.
func Cap(v, def, ceiling int) int {
	if v <= 0 {
		return def
	}
	return min(v, ceiling)
}
