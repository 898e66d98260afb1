package tool

import "github.com/spillway-dev/spillway/output"

// BashPolicy limits each stream of a bash result.
type BashPolicy struct {
	// Stdout and Stderr limit each stream: its strategy (head, tail,
	// head_tail), lines, bytes, characters a line and tokens. When
	// MergeStreams is set, the one merged stream uses Stdout. Their keys
	// are set in the tables bash.stdout and bash.stderr, and in bash for
	// both (the option shared).
	Stdout output.Limits `toml:"stdout,shared"`
	Stderr output.Limits `toml:"stderr,shared"`
	// MergeStreams sends stderr into stdout in order of arrival.
	MergeStreams bool `toml:"merge_streams"`
	// SpillWhen says when a stream is spilled: on any cut (the default),
	// or only when it passes its byte limit.
	SpillWhen output.SpillWhen
	// Binary is the rule that calls a stream binary from its start:
	// spillway's own, or the one of the design a profile follows.
	Binary output.BinaryRule
	// MaxProcesses caps the tasks (processes and threads) of one job, so
	// that one command cannot take every process the user may have and
	// leave the server (and every other session) unable to start a thread
	// or a command; 0 means no cap; 4096 by default. See
	// docs/reliability.md for how it is enforced.
	MaxProcesses int `toml:"max_processes" min:"0" max:"int32"`
	// Shapes shows a cut stream that is mostly lines of a few shapes as
	// its telling lines and one line for each shape that stands for the
	// rest, within what the output is worth rather than the limits: the
	// default profile's way; the others reproduce their designs' cuts.
	Shapes bool
}
