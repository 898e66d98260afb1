// Package policy holds what spillway's limits are made of below the API:
// the hard ceilings, the config file's keys and their bounds (Keys, read
// from the tags of spillway.Policy), and the arithmetic that lays a call's
// own limits over the policy's.
//
// A policy is built in layers, each one overriding the one before:
//
//	spillway.DefaultPolicy < spillway.Profile(name) < config file < command-line flags < per-call parameters
//
// and every layer is held to the hard ceilings (StreamCeiling,
// LinesCeiling). The config package builds the first four layers; ForCall
// and Limit apply the last.
package policy

import (
	"slices"
	"time"

	"github.com/spillway-dev/spillway/output"
)

// Hard ceilings that no layer can pass.
const (
	// StreamCeiling bounds one stream of a result, whatever was asked
	// (full_output, max_bytes, a config file's max_bytes).
	StreamCeiling = 1 << 20
	// LinesCeiling bounds max_lines and limit, wherever they are set.
	LinesCeiling = 100_000
	// DefaultResultBudget is the default per-result budget: the inline
	// limit of Claude Code, the strictest major client (it persists a
	// longer result to a file of its own and shows the model a preview).
	DefaultResultBudget = 50_000
	// MinResultBudget is the smallest budget a result can keep: room for
	// its labels, notices (with spill paths), status and notes.
	MinResultBudget = 2_000
	// DefaultMaxProcesses is the default cap on a job's tasks: far above
	// what a parallel build or a test suite runs (threads count), far
	// below the kernel's pid_max (32768 by default).
	DefaultMaxProcesses = 4096
	// DefaultTimeout is the default bash timeout, after which a command
	// moves to the background.
	DefaultTimeout = 2 * time.Minute
)

// A Profile is what the config file and the CLI know of one of the
// profiles spillway.Profile builds: its name, and what it is in a few
// words (spillway --help).
type Profile struct {
	Name, Words string
}

// profiles are the root package's table of profiles, registered at init.
var profiles []Profile

// RegisterProfiles records the profiles, in the order help and docs list
// them. The root package calls it once, at init, from its table.
func RegisterProfiles(ps []Profile) { profiles = slices.Clone(ps) }

// Profiles returns the registered profiles, "default" first.
func Profiles() []Profile { return slices.Clone(profiles) }

// ProfileNames lists the names spillway.Profile takes, "default" first,
// in the order help and docs list them.
func ProfileNames() []string {
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = p.Name
	}
	return names
}

// Limit is a call's limit parameter (lines, matches, results or entries)
// held to LinesCeiling; zero or less means "not given" and yields def.
func Limit(v, def int) int { return perCall(v, def, LinesCeiling) }

// perCall is a per-call value held to its ceiling; zero or less means
// "not given" and yields def.
func perCall(v, def, ceiling int) int {
	if v <= 0 {
		return def
	}
	return min(v, ceiling)
}

// ForCall applies the per-call parameters of one bash call to a stream's
// limits: max_lines and max_bytes (zero or less: not given) and
// full_output. A value above its ceiling is held to it: a max_bytes of 1
// GiB gives StreamCeiling. full_output shows everything up to the ceilings
// (no line is cut by max_line_chars); past them the strategy still decides
// which end is kept. A max_lines given here also sets how many lines are
// shown once the stream is cut (it clears a profile's ShownLines).
func ForCall(l output.Limits, maxLines, maxBytes int, full bool) output.Limits {
	if full {
		l.MaxLines, l.MaxBytes, l.MaxLineChars, l.ShownLines, l.MaxTokens = LinesCeiling, StreamCeiling, 0, 0, 0
		return l
	}
	if maxLines > 0 {
		l.MaxLines, l.ShownLines = min(maxLines, LinesCeiling), 0
	}
	l.MaxLines = min(l.MaxLines, LinesCeiling)
	l.MaxBytes = perCall(maxBytes, min(l.MaxBytes, StreamCeiling), StreamCeiling)
	return l
}

// WithMaxTokens applies a bash call's max_tokens (zero or less: not given)
// to a stream's limits, held to StreamCeiling (no stream shows more bytes,
// so a larger token limit never binds). It is applied after ForCall: a
// call that asks for full_output and max_tokens gets the tokens it asked
// for.
func WithMaxTokens(l output.Limits, maxTokens int) output.Limits {
	if maxTokens > 0 {
		l.MaxTokens = min(maxTokens, StreamCeiling)
	}
	return l
}
