package spillway

import (
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
)

// A Policy is the whole set of limits a toolset applies: the shell and
// its default timeout, the result budget, where spill files go, and one
// policy per tool. It is plain data; start from DefaultPolicy or Profile
// and change what you need. docs/tools.md states the defaults under every
// profile, and docs/profiles.md the config keys that set them.
type Policy struct {
	// Profile names the profile the policy was built from.
	Profile string
	// Shell runs bash commands: "bash" unless configured.
	Shell string
	// Timeout is the default bash timeout, after which a command moves to
	// the background (it is not killed); 120 s by default. Config key
	// timeout_ms.
	Timeout time.Duration
	// MaxWait, when above zero, bounds how long one call waits: a
	// command's timeout and check_pid's wait. The MCP server sets it so
	// that every call returns before its client gives up on the request.
	// It is not a config key: a Timeout above it raises it.
	MaxWait time.Duration
	// ResultBudget is the most characters one result shows, everything in
	// it (both streams, markers, notices) together; a stream that needs
	// less leaves its share to the other. It is counted in UTF-8 bytes,
	// never fewer than characters (or JavaScript's UTF-16 units). Zero
	// means no budget: each stream only has its own limits. Config key
	// result_budget; 50,000 by default.
	ResultBudget int
	// ErrorResultBudget, when above zero and below ResultBudget, is the
	// budget of a bash result whose command failed (a non-zero exit or a
	// signal): some clients keep less of an error result than of another
	// (Claude Code keeps 10,000 characters of one). The MCP server sets it
	// for the clients it knows; it is not a config key.
	ErrorResultBudget int
	// Spill says where spill files go and how big they may grow.
	Spill SpillPolicy
	// Bash, Read, Grep, Find and Ls limit each tool's results.
	Bash BashPolicy
	Read ReadPolicy
	Grep GrepPolicy
	Find FindPolicy
	Ls   LsPolicy
	// Cache lets listed bash commands be answered from a recent result.
	Cache CachePolicy
}

// BashPolicy limits each stream of a bash result.
type BashPolicy struct {
	// Stdout and Stderr limit each stream: its strategy (head, tail,
	// head_tail), lines, bytes, characters a line and tokens. When
	// MergeStreams is set, the one merged stream uses Stdout. Config
	// tables bash (both streams), bash.stdout and bash.stderr.
	Stdout, Stderr output.Limits
	// MergeStreams sends stderr into stdout in order of arrival. Config
	// key bash.merge_streams.
	MergeStreams bool
	// SpillWhen says when a stream is spilled: on any cut (the default),
	// or only when it passes its byte limit.
	SpillWhen output.SpillWhen
	// MaxProcesses caps the tasks (processes and threads) of one job, so
	// that one command cannot take every process the user may have and
	// leave the server (and every other session) unable to start a thread
	// or a command; 0 means no cap. Config key bash.max_processes; 4096
	// by default. See docs/reliability.md for how it is enforced.
	MaxProcesses int
}

// ReadPolicy limits a read. Config table read.
type ReadPolicy struct {
	// MaxLines is the default of the read's limit parameter (2000);
	// MaxBytes bounds a page (50 KiB); a line longer than MaxLineChars
	// (2000) is cut, and continued with char_offset; zero never cuts.
	// MaxTokens, when above zero, ends a page before the line that would
	// pass that many estimated tokens.
	MaxLines, MaxBytes, MaxLineChars, MaxTokens int
	// LineNumbers numbers every line whatever the call's line_numbers,
	// for agents tuned to a read tool that always numbers them.
	LineNumbers bool
	// NoPartialLines, set by the pi profile, shows a first line over
	// MaxBytes as a notice alone: its size and the bash command that
	// prints its start ("[Line 1 is 50.0KB, exceeds 30.0KB limit. Use
	// bash to read: head -c 30720 FILE]"), instead of its start and a
	// char_offset to go on. It has no config key.
	NoPartialLines bool
}

// GrepPolicy limits a grep. Config table grep.
type GrepPolicy struct {
	// Limit is the default of the limit parameter (100 matches);
	// MaxBytes bounds the result (50 KiB); a matching line longer than
	// MaxLineChars (500) is shown around its first match; MaxTokens, when
	// above zero, bounds the result's estimated tokens.
	Limit, MaxBytes, MaxLineChars, MaxTokens int
}

// FindPolicy limits a find. Config table find.
type FindPolicy struct {
	// Limit is the default of the limit parameter (1000 results);
	// MaxBytes bounds the result (50 KiB); MaxTokens, when above zero,
	// bounds its estimated tokens.
	Limit, MaxBytes, MaxTokens int
}

// LsPolicy limits an ls. Config table ls.
type LsPolicy struct {
	// Limit is the default of the limit parameter (500 entries);
	// MaxBytes bounds the result (50 KiB); MaxTokens, when above zero,
	// bounds its estimated tokens.
	Limit, MaxBytes, MaxTokens int
}

// SpillPolicy says where spill files go and how big they may grow.
// Config table spill.
type SpillPolicy struct {
	// Dir is the directory in which the spill directories are made
	// (spillway-<pid>-<random>/, or the CLI's spillway-<uid>/cli/).
	// Empty means $TMPDIR.
	Dir string
	// MaxBytes caps one spill file.
	MaxBytes int64
	// BudgetBytes caps a session's spill files, those being written
	// included; past it the oldest finished ones are deleted first, and
	// writers stop when none may go.
	BudgetBytes int64
	// KeepNamed is how long after a result named a spill file the budget
	// leaves it alone. Config key spill.keep_named_ms.
	KeepNamed time.Duration
}

// CachePolicy is the opt-in result cache of bash: a command on the list
// may be answered from the recorded result of the same command, run in
// the same directory with the same environment within TTL, instead of
// running it again. An empty list (the default) caches nothing. Config
// table cache.
type CachePolicy struct {
	// Commands lists the commands that may be cached, each matched
	// against the whole command with its spaces collapsed; an entry
	// ending in "*" matches every command that starts with the rest.
	Commands []string
	// TTL is how old a result may be to answer a call (30 s by default).
	// Config key cache.ttl_ms.
	TTL time.Duration
}

// Hard ceilings that no policy or call can pass.
const (
	// StreamCeiling bounds one stream of a result, in bytes (1 MiB).
	StreamCeiling = 1 << 20
	// LinesCeiling bounds every line or entry limit.
	LinesCeiling = 100_000
)

// DefaultPolicy returns the default limits (profile "default").
func DefaultPolicy() Policy { return newPolicy(policy.Default()) }

// Profile returns the policy of a named profile: the truncation behaviour
// of another agent harness (see ProfileNames and docs/profiles.md).
func Profile(name string) (Policy, error) {
	p, err := policy.Profile(name)
	return newPolicy(p), err
}

// ProfileNames lists the profiles, "default" first.
func ProfileNames() []string { return policy.ProfileNames() }

// Validate reports a value of p that a tool could not use; New refuses
// such a policy.
func (p Policy) Validate() error { return p.impl().Validate() }

// WithinBudget returns p as a toolset applies it: the byte limits of
// read, grep, find and ls held to the result budget, less room for their
// notices, so that each of their results fits it (bash shares the budget
// between its streams when it renders).
func (p Policy) WithinBudget() Policy { return newPolicy(p.impl().WithinBudget()) }
