package shell

import (
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
)

// streams are the limits a command's output is shown with, and when it
// is spilled.
type streams struct {
	Stdout, Stderr output.Limits
	MergeStreams   bool
	SpillWhen      output.SpillWhen
	Binary         output.BinaryRule
}

// streams returns the Runner's own limits, before a call's.
func (c Config) streams() streams {
	return streams{Stdout: c.Stdout, Stderr: c.Stderr, MergeStreams: c.MergeStreams, SpillWhen: c.SpillWhen, Binary: c.Binary}
}

// forCall lays a call's max_lines, max_bytes, full_output and max_tokens
// over both streams (policy.ForCall, policy.WithMaxTokens).
func (s streams) forCall(maxLines, maxBytes int, full bool, maxTokens int) streams {
	s.Stdout = policy.WithMaxTokens(policy.ForCall(s.Stdout, maxLines, maxBytes, full), maxTokens)
	s.Stderr = policy.WithMaxTokens(policy.ForCall(s.Stderr, maxLines, maxBytes, full), maxTokens)
	return s
}

// boundWait holds a call's wait d to MaxWait, if set.
func (c Config) boundWait(d time.Duration) time.Duration {
	if c.MaxWait <= 0 {
		return d
	}
	return min(d, c.MaxWait)
}

// shapes reports whether the streams of a call are shown as digests when
// cut: when the policy says so and the call sets no limit of its own (a
// model that asks for so many lines or bytes gets them).
func (c Config) shapes(in Command) bool {
	l := in.Limits
	return c.Shapes && l == (Limits{})
}
