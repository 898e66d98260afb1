package search

import (
	"fmt"
	"math"
	"slices"

	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
)

// A report gathers the lines of a grep or find result: they go through
// the output pipeline, which keeps what fits the byte and token limits and
// spills the whole, and the paths that could not be read are noted.
type report struct {
	pipe     *output.Pipeline
	maxBytes int
	// maxTokens, when above zero, limits the shown lines to that many
	// estimated tokens (output.Limits.MaxTokens).
	maxTokens int
	lines     int
	skipped   []string // "path (reason)" of what could not be read
	nSkip     int
	hiddenBy  []string // what hid paths (Config.Hide), each once
	nHidden   int
}

// Lines are the result lines of a grep or find.
type Lines struct {
	// Out holds the lines that fit MaxBytes and MaxTokens (0: none),
	// each ending in '\n', and where the whole was spilled.
	Out                 output.Result
	MaxBytes, MaxTokens int
	// Count counts the lines written, shown or not.
	Count int
	// Skipped names the first paths that could not be read, as
	// "path (reason)"; SkippedCount counts them all.
	Skipped      []string
	SkippedCount int
	// Hidden counts the paths Config.Hide kept out (a directory counts
	// once, its contents unseen); HiddenBy names what hid them, each
	// once, at most maxSkipped.
	Hidden   int
	HiddenBy []string
}

// maxSkipped bounds the unreadable paths a result names.
const maxSkipped = 5

func newReport(tool string, maxBytes, maxTokens int, store *spill.Store) *report {
	opt := output.Options{
		Limits: output.Limits{
			Strategy:  output.Head,
			MaxLines:  math.MaxInt32, // the result limits count lines
			MaxBytes:  maxBytes,
			MaxTokens: maxTokens,
		},
		SpillWhen: output.SpillPastBytes,
	}
	if store != nil {
		opt.Spill = store.Opener(tool, store.NextSeq(), "output")
	}
	return &report{pipe: output.New(opt), maxBytes: maxBytes, maxTokens: maxTokens}
}

// add writes one result line.
func (r *report) add(line string) {
	r.lines++
	r.pipe.Write([]byte(line))
	r.pipe.Write(newline)
}

// skip records a path that could not be read.
func (r *report) skip(path string, err error) {
	r.nSkip++
	if len(r.skipped) < maxSkipped {
		r.skipped = append(r.skipped, fmt.Sprintf("%s (%v)", cleanPath(path), unwrapPathError(err)))
	}
}

// hide records a path kept out by what hid it.
func (r *report) hide(by string) {
	r.nHidden++
	if len(r.hiddenBy) < maxSkipped && !slices.Contains(r.hiddenBy, by) {
		r.hiddenBy = append(r.hiddenBy, by)
	}
}

// finish closes the pipeline and returns the lines.
func (r *report) finish() Lines {
	r.pipe.Close()
	return Lines{
		Out:      r.pipe.Result(),
		MaxBytes: r.maxBytes, MaxTokens: r.maxTokens,
		Count:   r.lines,
		Skipped: r.skipped, SkippedCount: r.nSkip,
		Hidden: r.nHidden, HiddenBy: r.hiddenBy,
	}
}
