package spillway

import (
	"fmt"
	"strconv"

	"github.com/spillway-dev/spillway/output"
)

// What the tools' descriptions share. Each tool's description is in its
// own file (describeBash in bash.go, …), written for a model: what the
// tool does, the limits the policy in force puts on it, and how to get
// at what it cut.

// size formats a byte limit the way the notices do (50.0KB).
func size(n int) string { return output.FormatSize(int64(n)) }

// spillHowTo is the advice shared by every description: where cut output
// goes and how to get at it.
const spillHowTo = "When output is cut, a bracketed notice says so and names a file that holds all of it: " +
	"page through that file with `read` (offset/limit), search it with `grep`, or process it with `bash` " +
	"(`grep -n error FILE`, `tail -n 50 FILE`) instead of running the command again."

func strategyText(l output.Limits) string {
	switch l.Strategy {
	case output.Head:
		return "the first lines are kept"
	case output.Tail:
		return "the last lines are kept"
	default:
		return fmt.Sprintf("the first %d%% and the last %d%% are kept with a marker line between them",
			int(l.HeadShare*100+0.5), 100-int(l.HeadShare*100+0.5))
	}
}

// lineCap states a per-line cap, or nothing when there is none.
func lineCap(format string, n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(format, n)
}

// tokenCap states a token limit after conj (" or", " and"), "" when there
// is none.
func tokenCap(conj string, maxTokens int) string {
	if maxTokens <= 0 {
		return ""
	}
	return fmt.Sprintf("%s %d tokens (estimated)", conj, maxTokens)
}

// thousands writes n with commas between its thousands (100,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
