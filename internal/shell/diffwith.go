package shell

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spillway-dev/spillway/internal/difflines"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// diff_with: a call runs its command, then shows what changed in its
// output since an earlier run — a unified diff of each stream, cut and
// spilled like any output — and both exit codes. The streams are read
// back from the history (memory or spill files) and compared a window at
// a time (internal/difflines), so memory stays bounded on any output.

// MaxHistoryIDBytes bounds a history id given as text (diff_with): the
// digits of the largest int, and a sign. A longer one is refused before
// it is parsed, and never quoted back whole.
const MaxHistoryIDBytes = 20

// checkDiffWith checks the diff_with parameter: "", "last" or a history id.
func checkDiffWith(in command) error {
	if in.DiffWith == "" || in.DiffWith == "last" {
		return checkDiffRun(in)
	}
	if len(in.DiffWith) > MaxHistoryIDBytes {
		return fmt.Errorf("diff_with is %d bytes long, over the %d-byte limit on a history id (MaxHistoryIDBytes): give the history id of an earlier call (history_id in its result), or \"last\" for the last run of this command",
			len(in.DiffWith), MaxHistoryIDBytes)
	}
	if id, err := strconv.Atoi(string(in.DiffWith)); err != nil || id <= 0 {
		return fmt.Errorf("diff_with %q: give the history id of an earlier call (history_id in its result), or \"last\" for the last run of this command", in.DiffWith)
	}
	return checkDiffRun(in)
}

func checkDiffRun(in command) error {
	if in.DiffWith != "" && (in.RunInBackground || in.TTY) {
		return errors.New("diff_with compares the output of a run that ends: leave out run_in_background and tty")
	}
	return nil
}

// diffBase finds the record a call's diff_with names, before the call
// runs: nil, with no error, for "last" when the command never ran.
func (r *Runner) diffBase(in command) (*record, error) {
	if in.DiffWith == "last" {
		h := &r.history
		h.mu.Lock()
		defer h.mu.Unlock()
		for i := len(h.records) - 1; i >= 0; i-- {
			rec := h.records[i]
			if !rec.Running && rec.Command == in.Command && slices.Equal(rec.Args, in.Args) {
				return rec, nil
			}
		}
		return nil, nil
	}
	id, _ := strconv.Atoi(string(in.DiffWith))
	rec, err := r.history.record(id)
	if err != nil {
		return nil, fmt.Errorf("diff_with: %w", err)
	}
	r.history.mu.Lock()
	running := rec.Running
	r.history.mu.Unlock()
	if running {
		return nil, fmt.Errorf("diff_with: call %d is still running: diff with it once it has ended", id)
	}
	return rec, nil
}

// diffResult turns the result of a run that ended into the diff of its
// output with base's.
func (r *Runner) diffResult(in command, base, cur *record, res Outcome) Outcome {
	r.history.mu.Lock()
	d := &recordDiff{base: *base, cur: *cur}
	r.history.mu.Unlock()
	d.spill, d.pol = r.cfg.Spill, commandLimits(in, r.cfg.Bash)
	if d.spill != nil {
		d.seq = d.spill.NextSeq()
	}
	out := d.stream("stdout", &d.base.data.stdout, &d.cur.data.stdout, d.pol.Stdout)
	var errs *streamDiff
	var errPipe *output.Pipeline
	if d.base.data.stderr != nil || d.cur.data.stderr != nil {
		e := d.stream("stderr", orEmpty(d.base.data.stderr), orEmpty(d.cur.data.stderr), d.pol.Stderr)
		errs, errPipe = &e, e.pipe
	}
	render := func(o output.Result, e *output.Result) string { return d.text(out, errs, o, e) }
	budget := r.cfg.ResultBudget
	if in.FullOutput || in.MaxBytes > 0 {
		budget = 0
	}
	o, e := cutWithin(budget, out.pipe, errPipe, render)
	res.Text = render(o, e)
	res.Stdout, res.Stderr, res.Screen = o, e, ""
	code := d.base.status.code
	res.Details.DiffWith, res.Details.DiffWithExitCode = d.base.ID, &code
	return res
}

// A recordDiff compares the output of two runs of a command, base's and
// cur's (copies of their records), into pipelines that spill as the
// call seq's.
type recordDiff struct {
	base, cur record
	spill     *spill.Store
	pol       tool.BashPolicy
	seq       int
}

// A streamDiff is the diff of one stream: cut and spilled in pipe.
type streamDiff struct {
	pipe  *output.Pipeline
	stats difflines.Stats
	err   error
}

// stream diffs the stream name, a of base and b of cur, into a pipeline
// of limits lim.
func (d *recordDiff) stream(name string, a, b *streamData, lim output.Limits) streamDiff {
	opt := output.Options{Limits: lim, SpillWhen: d.pol.SpillWhen}
	if d.spill != nil {
		opt.Spill = d.spill.Opener("diff", d.seq, name)
	}
	p := output.New(opt)
	defer p.Close()
	ra, done, err := streamReader(a)
	if err != nil {
		return streamDiff{pipe: p, err: fmt.Errorf("history %d's %s: %w", d.base.ID, name, err)}
	}
	defer done()
	rb, done2, err := streamReader(b)
	if err != nil {
		return streamDiff{pipe: p, err: fmt.Errorf("history %d's %s: %w", d.cur.ID, name, err)}
	}
	defer done2()
	st, err := difflines.Unified(p, ra, rb, fmt.Sprintf("history %d %s", d.base.ID, name), fmt.Sprintf("history %d %s", d.cur.ID, name))
	return streamDiff{pipe: p, stats: st, err: err}
}

// text is the result's text: each stream's diff (o of stdout's, e of
// stderr's where errs is not nil), both exit codes, and how to see
// either output.
func (d *recordDiff) text(out streamDiff, errs *streamDiff, o output.Result, e *output.Result) string {
	var bld strings.Builder
	d.section(&bld, "stdout", out, o)
	if errs != nil && e != nil {
		d.section(&bld, "stderr", *errs, *e)
	}
	base, cur := d.base.ID, d.cur.ID
	fmt.Fprintf(&bld, "\n%s; history %d's %s\n", d.cur.status.String(), base, d.base.status.String())
	fmt.Fprintf(&bld, "[diff_with %d: \"-\" lines are history %d's output, \"+\" lines this run's (history %d); history id=%d or id=%d shows either output",
		base, base, cur, cur, base)
	if capped(d.base.data) || capped(d.cur.data) {
		bld.WriteString(". An output passed its spill cap: only what its spill file holds was compared")
	}
	bld.WriteString("]")
	return bld.String()
}

// section writes what changed in the stream label, or that it did not or
// could not be compared; nothing for a stderr empty in both runs.
func (d *recordDiff) section(bld *strings.Builder, label string, sd streamDiff, v output.Result) {
	if sd.err == nil && sd.stats.Same() && sd.stats.LinesB == 0 && label == "stderr" {
		return // no stderr in either run
	}
	if bld.Len() > 0 {
		bld.WriteByte('\n')
	}
	switch {
	case sd.err != nil:
		fmt.Fprintf(bld, "%s: [cannot diff: %v]\n", label, sd.err)
	case sd.stats.Same():
		fmt.Fprintf(bld, "%s: the same in both runs (%s)\n", label, output.Plural(sd.stats.LinesB, "line", "lines"))
	default:
		fmt.Fprintf(bld, "%s, diff with history %d (%d removed, %d added):\n", label, d.base.ID, sd.stats.Removed, sd.stats.Added)
		text := v.Text()
		bld.WriteString(text)
		if text != "" && !strings.HasSuffix(text, "\n") {
			bld.WriteByte('\n')
		}
		if n := v.Notice(label + " diff"); n != "" {
			bld.WriteString(n + "\n")
		}
	}
}

func orEmpty(s *streamData) *streamData {
	if s == nil {
		return &streamData{}
	}
	return s
}

// streamReader reads a recorded stream from its start: all of it, or what
// its spill file kept.
func streamReader(s *streamData) (io.Reader, func(), error) {
	if s.Binary {
		return nil, nil, errors.New("binary output is not compared")
	}
	src, err := openSource(s)
	if err != nil {
		return nil, nil, err
	}
	return io.NewSectionReader(src.head, 0, src.headLen), src.close, nil
}

// capped reports whether a stream of d was saved only in part.
func capped(d *recordData) bool {
	for _, s := range d.streams() {
		if s.SpillCapped {
			return true
		}
	}
	return false
}
