package shell

import (
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/tool"
)

// forCall lays a call's max_lines, max_bytes, full_output and max_tokens
// over both streams of b (policy.ForCall, policy.WithMaxTokens).
func forCall(b tool.BashPolicy, maxLines, maxBytes int, full bool, maxTokens int) tool.BashPolicy {
	b.Stdout = policy.WithMaxTokens(policy.ForCall(b.Stdout, maxLines, maxBytes, full), maxTokens)
	b.Stderr = policy.WithMaxTokens(policy.ForCall(b.Stderr, maxLines, maxBytes, full), maxTokens)
	return b
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
func (c Config) shapes(in command) bool {
	own := in.MaxLines != 0 || in.MaxBytes != 0 || in.MaxTokens != 0 || in.FullOutput ||
		in.lines.Stdout != 0 || in.lines.Stderr != 0
	return c.Bash.Shapes && !own
}
