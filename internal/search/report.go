package search

import (
	"fmt"
	"math"
	"strings"

	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
)

// A report builds the text of a grep or find result: the result lines go
// through the output pipeline (byte limit, spill of what does not fit),
// and the notices follow after a blank line.
type report struct {
	pipe     *output.Pipeline
	maxBytes int
	// maxTokens, when above zero, limits the shown lines to that many
	// estimated tokens (output.Limits.MaxTokens).
	maxTokens int
	lines     int
	skipped   []string // "path (reason)" of what could not be read
	nSkip     int
}

// maxSkipped bounds the unreadable paths a notice names.
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

// rendered is a finished report.
type rendered struct {
	body           string // the result lines shown, without the final '\n'
	truncation     output.Truncation
	bytesCut       bool
	fullOutputPath string
	res            output.Result
	maxBytes       int
	maxTokens      int
}

func (r *report) render() rendered {
	r.pipe.Close()
	res := r.pipe.Result()
	return rendered{
		body:           strings.TrimSuffix(res.Head, "\n"),
		truncation:     res.Truncation,
		fullOutputPath: res.FullOutputPath,
		bytesCut:       res.Truncation.TruncatedBy == output.ByBytes || res.Truncation.TruncatedBy == output.ByTokens,
		res:            res,
		maxBytes:       r.maxBytes,
		maxTokens:      r.maxTokens,
	}
}

// byteNotice is the notice of a result cut by the byte limit, or the
// token limit: what it shows ("842 of 1000 results"), where the rest is
// and how to read it.
func (out rendered) byteNotice(shown string) string {
	var b strings.Builder
	if out.truncation.TruncatedBy == output.ByTokens {
		fmt.Fprintf(&b, "[%d tokens limit reached: %s", out.maxTokens, shown)
	} else {
		fmt.Fprintf(&b, "[%s limit reached: %s", output.FormatSize(int64(out.maxBytes)), shown)
	}
	res := out.res
	switch {
	case res.SpillError != "":
		b.WriteString(". Full output could not be saved: " + res.SpillError)
	case res.FullOutputPath != "":
		b.WriteString(". Full output: " + res.FullOutputPath)
		if res.SpillCapped {
			fmt.Fprintf(&b, " (full output capped at %s)", output.FormatSize(res.SpillCap))
		}
		if next := out.next(); next != nil {
			b.WriteString(". To see the rest: read it with " + next.Words(true))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// next is the read of the spill file that shows the lines the byte limit
// left out, or nil.
func (out rendered) next() output.Call {
	if !out.bytesCut || out.fullOutputPath == "" || out.res.SpillError != "" {
		return nil
	}
	t := out.truncation
	if t.FirstLinePartial {
		// One result longer than the limit, shown in part: the read goes
		// on inside it.
		if next := out.res.Next(); len(next) > 0 {
			return next[0]
		}
	}
	return output.ReadCall(out.fullOutputPath, t.OutputLines+1, t.TotalLines-t.OutputLines, 0)
}

// skippedNotice names the paths that could not be read, or "".
func (r *report) skippedNotice() string {
	if r.nSkip == 0 {
		return ""
	}
	noun := "paths"
	if r.nSkip == 1 {
		noun = "path"
	}
	s := fmt.Sprintf("[Skipped %d unreadable %s: %s", r.nSkip, noun, strings.Join(r.skipped, ", "))
	if more := r.nSkip - len(r.skipped); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s + "]"
}

// skippedList returns the paths that could not be read, for the details.
func (r *report) skippedList() []string {
	return r.skipped
}

// joinText puts the body and the notices together.
func joinText(body string, notices []string) string {
	var ns []string
	for _, n := range notices {
		if n != "" {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return body
	}
	if body == "" {
		return strings.Join(ns, "\n")
	}
	return body + "\n\n" + strings.Join(ns, "\n")
}
