package shell

import "github.com/spillway-dev/spillway/output"

// The budget of a result: stdout, stderr, markers, notices, status and
// notes together fit it. It is shared at render time, when both streams'
// windows are known: each pipeline keeps enough to show any smaller share
// (output.Pipeline.ResultWithin), so nothing in the hot path knows about
// it.

// maxFitRounds bounds the rounds of fitting: each round measures the
// whole text and shrinks the shares by what is still over.
const maxFitRounds = 8

// fitShares returns the most content bytes each stream may show so that
// render(out, err) fits budget, and the text render gives for them.
// render shows both streams with at most that many bytes each (a stream's
// own limit still applies when it is smaller); need gives, for a share,
// the bytes of content a stream would show with it. A stream that needs
// less than half leaves the rest to the other. When even the smallest
// shares do not fit (the notes alone are over budget), the smallest is
// returned.
func fitShares(budget int, render func(out, err int) string, outNeed, errNeed int) (out, err int, text string) {
	const unlimited = 1 << 30
	text = render(unlimited, unlimited)
	if budget <= 0 || len(text) <= budget {
		return unlimited, unlimited, text
	}
	// Everything but the content: labels, notices, markers, status, notes.
	// Notices and markers grow once a stream is cut; the rounds below
	// take back what they add.
	fixed := len(text) - outNeed - errNeed
	avail := max(2, budget-fixed)
	out, err = split(avail, outNeed, errNeed)
	for range maxFitRounds {
		text = render(out, err)
		over := len(text) - budget
		if over <= 0 {
			return out, err, text
		}
		// Take what is over from the bigger share (both when equal),
		// with a little more so that a notice's numbers growing by a
		// digit does not cost another round.
		take := over + 16
		switch {
		case out > err:
			out = max(1, out-take)
		case err > out:
			err = max(1, err-take)
		default:
			out, err = max(1, out-(take+1)/2), max(1, err-(take+1)/2)
		}
	}
	return out, err, render(out, err)
}

// split shares avail bytes between two streams that need a and b: each
// gets half, and a stream that needs less than its half gives the rest to
// the other.
func split(avail, a, b int) (int, int) {
	half := avail / 2
	switch {
	case a <= half:
		return max(1, a), max(1, avail-a)
	case b <= half:
		return max(1, avail-b), max(1, b)
	}
	return max(1, half), max(1, avail-half)
}

// notesLen is the length of the status and notes a page ends with, and
// of the blank line before them: what a screen leaves of the budget for
// them.
func notesLen(status string, notes []string) int {
	n := len(status) + 2
	for _, s := range notes {
		n += len(s) + 1
	}
	return n
}

// contentBytes is what a stream result shows of its content.
func contentBytes(r *output.Result) int {
	if r == nil {
		return 0
	}
	return len(r.Text())
}
