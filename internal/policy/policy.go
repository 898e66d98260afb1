// Package policy holds spillway's limits: per tool and per stream, the
// strategy and the limits that the output pipeline enforces, when a stream
// is spilled, and where.
//
// A Policy is built in layers, each one overriding the one before:
//
//	Default() < Profile(name) < config file < command-line flags < per-call parameters
//
// and every layer is held to the hard ceilings (StreamCeiling, LinesCeiling).
// Load builds the first four layers; the ForCall methods apply the last.
package policy

import (
	"fmt"
	"time"

	"github.com/spillway-dev/spillway/internal/spill"
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
)

// Bash is the policy of the bash tool.
type Bash struct {
	// Stdout and Stderr limit each stream. When MergeStreams is set, the
	// one merged stream uses Stdout and Stderr is unused.
	Stdout, Stderr output.Limits
	// MergeStreams sends stderr into stdout in order of arrival.
	MergeStreams bool
	// SpillWhen says when a stream is spilled: on any cut, or only when it
	// passes its byte limit.
	SpillWhen output.SpillWhen
	// MaxProcesses caps the tasks (processes and threads) of one job; 0
	// means no cap.
	MaxProcesses int
}

// DefaultMaxProcesses is the default cap on a job's tasks: far above
// what a parallel build or a test suite runs (threads count), far below
// the kernel's pid_max (32768 by default).
const DefaultMaxProcesses = 4096

// Read is the policy of the read tool. MaxLines is the default of the
// read's limit parameter. MaxLineChars of zero means lines are never cut.
// LineNumbers numbers every line whatever the call's line_numbers, for
// agents tuned to a read tool that always numbers them. MaxTokens of zero
// means no token limit.
type Read struct {
	MaxLines, MaxBytes, MaxLineChars, MaxTokens int
	LineNumbers                                 bool
	// NoPartialLines: a page whose first line is over MaxBytes shows no
	// line, only a notice naming a command that prints the line's start,
	// instead of the line's start and a char_offset to go on.
	NoPartialLines bool
}

// Grep is the policy of the grep tool. Limit is the default of its limit
// parameter (matches). MaxLineChars of zero means lines are never cut;
// MaxTokens of zero means no token limit (output.Limits.MaxTokens).
type Grep struct {
	Limit, MaxBytes, MaxLineChars, MaxTokens int
}

// Find is the policy of the find tool. Limit is the default of its limit
// parameter (results); MaxTokens of zero means no token limit.
type Find struct {
	Limit, MaxBytes, MaxTokens int
}

// Ls is the policy of the ls tool. Limit is the default of its limit
// parameter (entries); MaxTokens of zero means no token limit.
type Ls struct {
	Limit, MaxBytes, MaxTokens int
}

// Spill says where spill files go and how big they may grow.
type Spill struct {
	// Dir is the directory in which the spill directories are made
	// (spillway-<pid>-<random>/, or the CLI's spillway-<uid>/cli/).
	// Empty means $TMPDIR.
	Dir string
	// MaxBytes caps one spill file (spill_max_bytes).
	MaxBytes int64
	// BudgetBytes caps a session's spill files, those being written
	// included; past it the oldest finished ones are deleted first, and
	// writers stop when none may go (spill_budget_bytes).
	BudgetBytes int64
	// KeepNamedMS is how long (ms) after a result named a spill file the
	// budget leaves it alone (spill keep_named_ms).
	KeepNamedMS int64
}

// StoreConfig returns the spill.Config that implements s.
func (s Spill) StoreConfig() spill.Config {
	return spill.Config{TempDir: s.Dir, MaxFileBytes: s.MaxBytes, BudgetBytes: s.BudgetBytes,
		KeepNamed: time.Duration(s.KeepNamedMS) * time.Millisecond}
}

// Policy is spillway.Policy inside the implementation, field for field,
// with its durations in milliseconds as the config file counts them; the
// root package documents each field.
type Policy struct {
	Profile           string
	Shell             string
	TimeoutMS         int
	MaxWaitMS         int // not a config key
	ResultBudget      int
	ErrorResultBudget int // not a config key
	Spill             Spill
	Bash              Bash
	Read              Read
	Grep              Grep
	Find              Find
	Ls                Ls
	Cache             Cache
}

// Cache is the opt-in result cache of bash: a command on the list may be
// answered from the recorded result of the same command, run in the same
// directory with the same environment within TTLMS, instead of running it
// again. An empty list (the default) caches nothing.
type Cache struct {
	// Commands lists the commands that may be cached, each matched against
	// the whole command with its spaces collapsed; an entry ending in "*"
	// matches every command that starts with the rest.
	Commands []string
	// TTLMS is how old, in milliseconds, a result may be to answer a call.
	TTLMS int
}

// DefaultCacheTTLMS is the cache's default time to live.
const DefaultCacheTTLMS = 30_000

// Default returns the default policy: the limits docs/tools.md states.
func Default() Policy {
	return Policy{
		Profile:   "default",
		Shell:     "bash",
		TimeoutMS: 120_000,

		ResultBudget: DefaultResultBudget,
		Spill:        Spill{MaxBytes: spill.DefaultMaxFileBytes, BudgetBytes: spill.DefaultBudgetBytes, KeepNamedMS: spill.DefaultKeepNamed.Milliseconds()},
		Bash: Bash{
			Stdout:       output.DefaultLimits,
			Stderr:       output.DefaultLimits,
			MaxProcesses: DefaultMaxProcesses,
		},
		Read:  Read{MaxLines: 2000, MaxBytes: 50 * 1024, MaxLineChars: 2000},
		Grep:  Grep{Limit: 100, MaxBytes: 50 * 1024, MaxLineChars: 500},
		Find:  Find{Limit: 1000, MaxBytes: 50 * 1024},
		Ls:    Ls{Limit: 500, MaxBytes: 50 * 1024},
		Cache: Cache{TTLMS: DefaultCacheTTLMS},
	}
}

// BoundWait holds a call's wait d to MaxWaitMS, if set.
func (p Policy) BoundWait(d time.Duration) time.Duration {
	if p.MaxWaitMS <= 0 {
		return d
	}
	return min(d, time.Duration(p.MaxWaitMS)*time.Millisecond)
}

// noticeReserve is what a one-stream result (read, grep, find, ls) keeps
// of the budget for its notices: the limit reached, the lines cut, how to
// go on, a spill path.
const noticeReserve = 1_000

// WithinBudget returns p with the byte limits of read, grep, find and ls
// held to the result budget, less room for their notices, so that each
// of their results fits it. bash shares the budget between its streams
// when it renders (its per-stream limits stay as they are).
func (p Policy) WithinBudget() Policy {
	if p.ResultBudget <= 0 {
		return p
	}
	room := max(1, p.ResultBudget-noticeReserve)
	p.Read.MaxBytes = min(p.Read.MaxBytes, room)
	p.Grep.MaxBytes = min(p.Grep.MaxBytes, room)
	p.Find.MaxBytes = min(p.Find.MaxBytes, room)
	p.Ls.MaxBytes = min(p.Ls.MaxBytes, room)
	return p
}

// perCall is a per-call value held to its ceiling; zero or less means
// "not given" and yields def.
func perCall(v, def, ceiling int) int {
	if v <= 0 {
		return def
	}
	return min(v, ceiling)
}

// ForCall applies the per-call parameters of one bash call to both streams:
// max_lines and max_bytes (zero or less: not given) and full_output. A
// value above its ceiling is held to it: a max_bytes of 1 GiB gives
// StreamCeiling. full_output shows everything up to the ceilings (no line is
// cut by max_line_chars); past them the policy's strategy still decides
// which end is kept. A max_lines given here also sets how many lines are
// shown once the stream is cut (it clears a profile's ShownLines).
func (b Bash) ForCall(maxLines, maxBytes int, full bool) Bash {
	b.Stdout = streamForCall(b.Stdout, maxLines, maxBytes, full)
	b.Stderr = streamForCall(b.Stderr, maxLines, maxBytes, full)
	return b
}

func streamForCall(l output.Limits, maxLines, maxBytes int, full bool) output.Limits {
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
// to both streams, held to StreamCeiling (no stream shows more bytes, so a
// larger token limit never binds). It is applied after ForCall: a call
// that asks for full_output and max_tokens gets the tokens it asked for.
func (b Bash) WithMaxTokens(maxTokens int) Bash {
	if maxTokens > 0 {
		b.Stdout.MaxTokens = min(maxTokens, StreamCeiling)
		b.Stderr.MaxTokens = min(maxTokens, StreamCeiling)
	}
	return b
}

// ForCall applies a read call's limit parameter (lines; zero or less: not
// given), held to LinesCeiling.
func (r Read) ForCall(limit int) Read {
	r.MaxLines = perCall(limit, r.MaxLines, LinesCeiling)
	return r
}

// Limits returns the pipeline limits of a read: the head of the file,
// MaxLines and MaxBytes, lines cut at MaxLineChars.
func (r Read) Limits() output.Limits {
	return output.Limits{Strategy: output.Head, MaxLines: r.MaxLines, MaxBytes: r.MaxBytes, MaxLineChars: r.MaxLineChars, MaxTokens: r.MaxTokens}
}

// ForCall applies a grep call's limit parameter (matches, or files in
// files_with_matches; zero or less: not given), held to LinesCeiling.
func (g Grep) ForCall(limit int) Grep {
	g.Limit = perCall(limit, g.Limit, LinesCeiling)
	return g
}

// ForCall applies a find call's limit parameter (results; zero or less:
// not given), held to LinesCeiling.
func (f Find) ForCall(limit int) Find {
	f.Limit = perCall(limit, f.Limit, LinesCeiling)
	return f
}

// ForCall applies an ls call's limit parameter (entries; zero or less: not
// given), held to LinesCeiling.
func (l Ls) ForCall(limit int) Ls {
	l.Limit = perCall(limit, l.Limit, LinesCeiling)
	return l
}

// Validate reports the first value of p that a tool cannot use.
func (p Policy) Validate() error {
	if p.Shell == "" {
		return fmt.Errorf("shell is empty")
	}
	if p.TimeoutMS <= 0 {
		return fmt.Errorf("timeout_ms %d: must be at least 1", p.TimeoutMS)
	}
	if p.ResultBudget != 0 && p.ResultBudget < MinResultBudget {
		return fmt.Errorf("result_budget %d: want 0 (no budget) or at least %d", p.ResultBudget, MinResultBudget)
	}
	if p.ErrorResultBudget != 0 && p.ErrorResultBudget < MinResultBudget {
		return fmt.Errorf("error result budget %d: want 0 (the result budget) or at least %d", p.ErrorResultBudget, MinResultBudget)
	}
	if p.Spill.MaxBytes <= 0 || p.Spill.BudgetBytes <= 0 {
		return fmt.Errorf("spill max_bytes and budget_bytes must be at least 1")
	}
	for _, s := range []struct {
		name string
		lim  output.Limits
	}{{"bash.stdout", p.Bash.Stdout}, {"bash.stderr", p.Bash.Stderr}, {"read", p.Read.Limits()}} {
		if err := s.lim.Validate(); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	for _, v := range []struct {
		key string
		v   int
	}{
		{"grep.limit", p.Grep.Limit}, {"grep.max_bytes", p.Grep.MaxBytes},
		{"find.limit", p.Find.Limit}, {"find.max_bytes", p.Find.MaxBytes},
		{"ls.limit", p.Ls.Limit}, {"ls.max_bytes", p.Ls.MaxBytes},
	} {
		if v.v <= 0 {
			return fmt.Errorf("%s %d: must be at least 1", v.key, v.v)
		}
	}
	for _, v := range []struct {
		key string
		v   int
	}{
		{"grep.max_line_chars", p.Grep.MaxLineChars}, {"grep.max_tokens", p.Grep.MaxTokens},
		{"find.max_tokens", p.Find.MaxTokens}, {"ls.max_tokens", p.Ls.MaxTokens},
	} {
		if v.v < 0 {
			return fmt.Errorf("%s %d: must not be negative", v.key, v.v)
		}
	}
	return nil
}
