package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spillway-dev/spillway/internal/term"
	"github.com/spillway-dev/spillway/output"
)

// What the model reads of a job on a terminal: while the program holds
// the alternate screen (or cleared the screen and drew on it), the screen
// as a person sees it; otherwise the stream of its output, sanitized, as
// for any job. docs/interactive.md shows both.

// settleTime is how long a screen must have been still before a look at
// it returns. A program redraws in a burst of writes: measured on vim,
// less, man, top and htop on a 2-core machine under a load average of 39,
// the writes of one redraw came a median 1-4 ms apart and at most 79 ms;
// the next redraw (a timer, a key) comes after 250 ms or more. 100 ms of
// quiet is the end of a redraw.
const settleTime = 100 * time.Millisecond

// settlePollEvery is how often a wait looks whether the screen settled.
const settlePollEvery = 10 * time.Millisecond

// maxSettle bounds the wait of a check_pid without a timeout for a screen
// that is being redrawn.
const maxSettle = time.Second

// settled reports whether the job's screen is what is read, output came
// after since, and then none for settleTime.
func (j *job) settled(since time.Time) bool {
	if j.term == nil || !j.term.Active() {
		return false
	}
	last := j.lastOutput.Load()
	return last > since.UnixNano() && time.Since(time.Unix(0, last)) >= settleTime && !j.unread()
}

// awaitSettle waits, at most limit, while the screen of a job on a
// terminal is being redrawn: until it has been still for settleTime.
func (j *job) awaitSettle(ctx context.Context, limit time.Duration) {
	if j.term == nil {
		return
	}
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(settlePollEvery)
	defer tick.Stop()
	for j.term.Active() && time.Since(time.Unix(0, j.lastOutput.Load())) < settleTime {
		select {
		case <-ctx.Done():
			return
		case <-deadline.C:
			return
		case <-j.readersDone:
			return
		case <-tick.C:
		}
	}
}

// screenText returns what a look shows of the job's screen, "" when the
// stream is what is read. full asks for every row; otherwise a look
// after one that showed the screen gives only the rows that changed.
// budget, when above zero, bounds the text.
func (j *job) screenText(full bool, budget int) string {
	j.shownMu.Lock()
	defer j.shownMu.Unlock()
	if j.term == nil || !j.term.Active() {
		j.shown = nil
		return ""
	}
	v := j.term.View()
	prev := j.shown
	j.shown = &v
	if full || prev == nil || prev.Cols != v.Cols || prev.Rows != v.Rows || prev.Alt != v.Alt {
		return renderScreen(v, nil, budget)
	}
	return renderScreen(v, prev, budget)
}

// renderScreen renders v: a header, then every row (trailing empty rows
// left out), or, with prev, the rows that differ from it, numbered.
func renderScreen(v term.View, prev *term.View, budget int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[screen %d×%d, cursor at row %d col %d]\n", v.Cols, v.Rows, v.Row, v.Col)
	var rows []int
	if prev == nil {
		last := len(v.Lines)
		for last > 0 && v.Lines[last-1] == "" {
			last--
		}
		for i := range last {
			rows = append(rows, i)
		}
	} else {
		for i, l := range v.Lines {
			if l != prev.Lines[i] {
				rows = append(rows, i)
			}
		}
		if len(rows) == 0 {
			b.WriteString("[no row changed since the last look]\n")
			return b.String()
		}
		fmt.Fprintf(&b, "[%d of %d rows changed since the last look, numbered; screen: %q shows every row]\n", len(rows), v.Rows, ScreenFull)
	}
	// What the budget leaves for rows, with room for the note below and
	// for the status and notes after the screen.
	room := 1 << 30
	if budget > 0 {
		room = max(0, budget-b.Len()-400)
	}
	for _, i := range rows {
		line := v.Lines[i]
		if prev != nil {
			line = strconv.Itoa(i+1) + ": " + line
		}
		if len(line)+1 > room {
			fmt.Fprintf(&b, "[rows %d-%d not shown: over the result budget]\n", i+1, rows[len(rows)-1]+1)
			break
		}
		room -= len(line) + 1
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// screenGaveUp is the note, said once, that the job's screen was given
// up: the emulator's work passed its ceiling (term.WorkPerByte a byte),
// or it failed on the output. What follows is the output as text.
func (j *job) screenGaveUp() string {
	if j.term == nil {
		return ""
	}
	gave, broken, w := j.term.GaveUp()
	if !gave || j.gaveUpSaid.Swap(true) {
		return ""
	}
	if broken {
		return "[its terminal's screen is no longer kept: the terminal emulator failed on its output. Its output is shown as text from here]"
	}
	if j.term.FellBehind() {
		_, budget := j.term.Lag()
		return fmt.Sprintf("[its terminal's screen is no longer kept: it fell more than %s behind its output, which came faster than this session's terminal emulation budget (%s) draws it. "+
			"Its output is shown as text from here]", output.FormatSize(int64(term.MaxLag)), budget)
	}
	return fmt.Sprintf("[its terminal's screen is no longer kept: its output cost the terminal emulator %s, past the ceiling of %s a byte. "+
		"Its output is shown as text from here]", w, term.WorkPerByte)
}

// screenLag is the note, said at every look while it holds, that the
// job's screen is behind its output: the session's terminals spent their
// emulation budget (term.Budget), so output is held, undrawn. The
// stream and its spill file are whole; only the screen lags.
func (j *job) screenLag() string {
	if j.term == nil {
		return ""
	}
	held, budget := j.term.Lag()
	if held == 0 {
		return ""
	}
	if isClosed(j.readersDone) {
		return fmt.Sprintf("[its terminal's screen lags behind its output: the last %s of it were never drawn, since this session's terminal emulation budget (%s) was spent. "+
			"The output itself is whole (stream and spill file)]", output.FormatSize(int64(held)), budget)
	}
	return fmt.Sprintf("[its terminal's screen lags behind its output: %s of it are not drawn yet, since this session's terminal emulation budget (%s) is spent. "+
		"The output itself is whole (stream and spill file); the screen catches up as the budget allows]", output.FormatSize(int64(held)), budget)
}
