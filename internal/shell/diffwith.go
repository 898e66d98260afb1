package shell

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spillway-dev/spillway/internal/difflines"
	"github.com/spillway-dev/spillway/output"
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
	b, c := *base, *cur
	r.history.mu.Unlock()
	pol := commandLimits(in, r.cfg.Bash)
	seq := 0
	if r.cfg.Spill != nil {
		seq = r.cfg.Spill.NextSeq()
	}
	type streamDiff struct {
		pipe  *output.Pipeline
		stats difflines.Stats
		err   error
	}
	diff := func(name string, a, b *streamData, lim output.Limits) streamDiff {
		opt := output.Options{Limits: lim, SpillWhen: pol.SpillWhen}
		if r.cfg.Spill != nil {
			opt.Spill = r.cfg.Spill.Opener("diff", seq, name)
		}
		p := output.New(opt)
		defer p.Close()
		ra, done, err := streamReader(a)
		if err != nil {
			return streamDiff{pipe: p, err: fmt.Errorf("history %d's %s: %w", base.ID, name, err)}
		}
		defer done()
		rb, done2, err := streamReader(b)
		if err != nil {
			return streamDiff{pipe: p, err: fmt.Errorf("history %d's %s: %w", cur.ID, name, err)}
		}
		defer done2()
		st, err := difflines.Unified(p, ra, rb, fmt.Sprintf("history %d %s", base.ID, name), fmt.Sprintf("history %d %s", cur.ID, name))
		return streamDiff{pipe: p, stats: st, err: err}
	}
	out := diff("stdout", &b.data.stdout, &c.data.stdout, pol.Stdout)
	var errs *streamDiff
	if b.data.stderr != nil || c.data.stderr != nil {
		e := diff("stderr", orEmpty(b.data.stderr), orEmpty(c.data.stderr), pol.Stderr)
		errs = &e
	}
	section := func(bld *strings.Builder, label string, d streamDiff, v output.Result) {
		if d.err == nil && d.stats.Same() && d.stats.LinesB == 0 && label == "stderr" {
			return // no stderr in either run
		}
		if bld.Len() > 0 {
			bld.WriteByte('\n')
		}
		switch {
		case d.err != nil:
			fmt.Fprintf(bld, "%s: [cannot diff: %v]\n", label, d.err)
		case d.stats.Same():
			fmt.Fprintf(bld, "%s: the same in both runs (%s)\n", label, output.Plural(d.stats.LinesB, "line", "lines"))
		default:
			fmt.Fprintf(bld, "%s, diff with history %d (%d removed, %d added):\n", label, base.ID, d.stats.Removed, d.stats.Added)
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
	render := func(o output.Result, e *output.Result) string {
		var bld strings.Builder
		section(&bld, "stdout", out, o)
		if errs != nil && e != nil {
			section(&bld, "stderr", *errs, *e)
		}
		fmt.Fprintf(&bld, "\n%s; history %d's %s\n", c.status.String(), base.ID, b.status.String())
		fmt.Fprintf(&bld, "[diff_with %d: \"-\" lines are history %d's output, \"+\" lines this run's (history %d); history id=%d or id=%d shows either output",
			base.ID, base.ID, cur.ID, cur.ID, base.ID)
		if capped(b.data) || capped(c.data) {
			bld.WriteString(". An output passed its spill cap: only what its spill file holds was compared")
		}
		bld.WriteString("]")
		return bld.String()
	}
	budget := r.cfg.ResultBudget
	if in.FullOutput || in.MaxBytes > 0 {
		budget = 0
	}
	var errPipe *output.Pipeline
	if errs != nil {
		errPipe = errs.pipe
	}
	o, e := cutWithin(budget, out.pipe, errPipe, render)
	res.Text = render(o, e)
	res.Stdout, res.Stderr, res.Screen = o, e, ""
	code := b.status.code
	res.Details.DiffWith, res.Details.DiffWithExitCode = base.ID, &code
	return res
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
