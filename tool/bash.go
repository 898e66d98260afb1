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

// SecretDetails describe the secret prompt a job waits at.
type SecretDetails struct {
	// Prompt is the last line the job wrote: the prompt.
	Prompt string `json:"prompt" doc:"The prompt: the last line the command wrote."`
	// URL is the one-time page where the person answers it; "" when
	// none could be opened.
	URL string `json:"url,omitempty" doc:"The one-time page (loopback) where the user answers the prompt; the answer goes to the command's terminal and never to you."`
	// Expires is when the page closes unanswered (RFC 3339); a later look
	// opens a new one.
	Expires string `json:"expires,omitempty" doc:"When the page closes unanswered (RFC 3339); a later look opens a new one."`
	// Program is the program that reads the terminal: its executable's
	// path (its name when the path cannot be read); "" when it could not
	// be found.
	Program string `json:"program" doc:"The program that reads the terminal, which gets what the user types: its executable's path, or its name when the path cannot be read."`
	// Verified: Program is the system's own (a set-user-ID sudo, su,
	// passwd or doas, or a program of secrets.trusted, its files root's
	// and outside every directory the session may write). The page's
	// first line says which.
	Verified bool `json:"verified" doc:"Whether the program is the system's own: a set-user-ID sudo, su, passwd or doas, or a program named in secrets.trusted, whose files are root's and outside every directory the session may write. When false the page warns the user not to type their login password, and with secrets.unverified = \"refuse\" no page is opened."`
}
