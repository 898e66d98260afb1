// Package term keeps the screen of a job that runs on a terminal: a
// terminal emulator (github.com/charmbracelet/x/vt) is fed the job's
// output as a terminal would be, so that what a full-screen program
// (less, vim, top, a TUI) drew can be read back as rows of text.
//
// The emulator is slow to scroll (every line scrolled moves the whole
// screen), so a line-oriented flood is not fed to it line by line: plain
// text is held, and only its last lines, the ones that can still be on
// the screen, reach the emulator when the screen is looked at (see
// hold.go). docs/interactive.md says what the model reads.
package term

import (
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/charmbracelet/x/vt"
)

// Default size of a job's terminal: 120 columns wrap less than 80 and keep
// tables whole; 40 rows is what a full-screen program draws.
const (
	DefaultCols = 120
	DefaultRows = 40
)

// Bounds of a terminal's size.
const (
	MinCols, MaxCols = 20, 500
	MinRows, MaxRows = 5, 200
)

// A Screen is the terminal of one job. Write is called by the goroutine
// that reads the job's output; the other methods by anyone.
type Screen struct {
	mu   sync.Mutex
	emu  *vt.Emulator
	cols int
	rows int
	feed feeder
	// reply receives what the terminal answers to the program's queries
	// (cursor position, device attributes), as a real terminal does.
	reply io.Writer
	// final is the screen as it was when Close dropped the emulator.
	final *View
	// work is what the emulator cost; gaveUp says that it passed the
	// ceiling and was dropped (work.go).
	work           Work
	gaveUp, broken bool
	// budget is the session's emulator time (budget.go); lag holds the
	// output that came while it was spent, not yet fed. behind says the
	// screen gave up because lag passed MaxLag; undrawn is what lag held
	// when Close kept the screen. leftLate says a catch-up at a look fed
	// the program's leaving the alternate screen: the next Write says so.
	budget   *Budget
	lag      []byte
	behind   bool
	undrawn  int
	leftLate bool
}

// New returns a screen of cols×rows. What the terminal answers to the
// program's queries is written to reply (the terminal's master side);
// reply may be nil. Its emulator spends from budget, which the session's
// other screens share; nil bounds nothing.
func New(cols, rows int, reply io.Writer, budget *Budget) *Screen {
	s := &Screen{cols: cols, rows: rows, reply: reply, budget: budget}
	s.emu = newEmulator(cols, rows)
	s.feed.cols, s.feed.rows = cols, rows
	go s.answer(s.emu)
	return s
}

func newEmulator(cols, rows int) *vt.Emulator {
	e := vt.NewEmulator(cols, rows)
	// The job's output stream, spilled whole, is the scrollback: the
	// emulator keeps none (its buffer would copy every line scrolled off).
	e.SetScrollbackSize(1)
	return e
}

// answer passes the emulator's answers to the program. The emulator
// writes them to a pipe as it parses, so the pipe is read at once; the
// answers are written to the program from another goroutine, and dropped
// when it does not read them, so that a program that neither reads its
// input nor stops writing never holds up the reading of its output.
func (s *Screen) answer(e *vt.Emulator) {
	answers := make(chan []byte, 8)
	defer close(answers)
	// A panic here (a bug) must end neither the server nor the reading
	// of the pipe: the emulator would block on it, and the job's output
	// with it. The answers are dropped from there.
	defer func() {
		if recover() != nil {
			io.Copy(io.Discard, e)
		}
	}()
	go func() {
		defer func() {
			if recover() != nil {
				for range answers {
				}
			}
		}()
		for a := range answers {
			if s.reply != nil {
				s.reply.Write(a)
			}
		}
	}()
	buf := make([]byte, 256)
	for {
		n, err := e.Read(buf)
		if n > 0 {
			select {
			case answers <- append([]byte(nil), buf[:n]...):
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// Size returns the screen's columns and rows.
func (s *Screen) Size() (cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cols, s.rows
}

// Write feeds the terminal with the next chunk of the program's output.
// It reports whether the program left the alternate screen within the
// chunk, and the offset just past the last such switch: the output after
// it is line-oriented text again. While the session's budget is spent,
// the chunk is held instead (the screen lags); a switch found in held
// output fed later is reported at offset 0 of the chunk then written.
func (s *Screen) Write(p []byte) (left bool, at int) {
	leftAt := func(a int) { left, at = true, a }
	if !s.catchUp(func() { leftAt(0) }) {
		s.holdBack(p)
		return left, at
	}
	// A piece at a time, so that a long write stops at the ceiling of the
	// emulator's work and at the budget, and a look at the screen waits
	// for one piece at most. Only the reader of the job's output writes,
	// so the pieces reach the emulator in order.
	for off := 0; off < len(p); off += meterPiece {
		piece := p[off:min(len(p), off+meterPiece)]
		fed, alive := s.writePiece(piece, func(a int) { leftAt(off + a) })
		if !alive {
			break
		}
		if !fed {
			s.holdBack(p[off:])
			break
		}
	}
	return left, at
}

// writePiece feeds one piece, calling leftAt with the offset past the
// program's leaving the alternate screen, if it did. fed is false when
// the budget is spent; alive whether the emulator takes more.
func (s *Screen) writePiece(piece []byte, leftAt func(int)) (fed, alive bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.emu == nil {
		return false, false
	}
	if !s.budget.available() {
		return false, true
	}
	s.feedLocked(piece, leftAt)
	return true, s.emu != nil
}

// feedLocked feeds the emulator, metered. The caller holds s.mu and
// knows s.emu is there.
func (s *Screen) feedLocked(piece []byte, leftAt func(int)) {
	s.work.Bytes += int64(len(piece))
	s.metered(func() {
		if l, a := s.feed.write(s.emu, piece); l {
			leftAt(a)
		}
	})
}

// catchUp feeds held output while the budget allows, and reports
// whether none is left held (or the emulator is gone). left is called
// if the program left the alternate screen in it, now or at a look.
func (s *Screen) catchUp(left func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	done := s.catchUpLocked()
	if s.leftLate {
		s.leftLate = false
		left()
	}
	return done
}

// catchUpLocked is catchUp for a caller that holds s.mu; a leave of the
// alternate screen is kept in leftLate.
func (s *Screen) catchUpLocked() bool {
	for s.emu != nil && len(s.lag) > 0 {
		if !s.budget.available() {
			return false
		}
		n := min(len(s.lag), meterPiece)
		s.feedLocked(s.lag[:n], func(int) { s.leftLate = true })
		s.lag = s.lag[n:]
	}
	s.lag = nil
	return true
}

// holdBack keeps p to be fed once the budget allows; a screen that falls
// more than MaxLag behind gives up.
func (s *Screen) holdBack(p []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.emu == nil {
		return
	}
	s.lag = append(s.lag, p...)
	if len(s.lag) > MaxLag {
		s.behind = true
		s.giveUp()
	}
}

// Lag says how many bytes of the program's output the screen has not
// drawn, after drawing what the budget allows now, and the budget that
// holds them back. A screen kept by Close reports what it never drew.
func (s *Screen) Lag() (held int, budget *Budget) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.emu == nil {
		return s.undrawn, s.budget
	}
	s.catchUpLocked()
	return len(s.lag), s.budget
}

// FellBehind reports whether the screen gave up because it lagged more
// than MaxLag behind the output.
func (s *Screen) FellBehind() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.behind
}

// Resize gives the terminal a new size. The program learns it from the
// kernel (SIGWINCH), and redraws.
func (s *Screen) Resize(cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.emu == nil {
		return
	}
	// What was written for the old size is drawn at it, as far as the
	// budget allows; the program redraws at the new size anyway.
	s.catchUpLocked()
	if s.emu != nil {
		s.metered(func() { s.feed.flush(s.emu) })
	}
	if s.emu == nil {
		return
	}
	s.emu.Resize(cols, rows)
	s.cols, s.rows = cols, rows
	s.feed.cols, s.feed.rows = cols, rows
}

// Active reports whether the screen, rather than the stream of output, is
// what a person would read: the program holds the alternate screen, or it
// cleared the screen and drew on it and has not scrolled it away since.
func (s *Screen) Active() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.feed.alt || s.feed.drawn
}

// A View is the screen at one moment.
type View struct {
	Cols, Rows int
	// Lines are the rows as text, trailing blanks trimmed; a wide
	// character takes two columns and appears once.
	Lines []string
	// Row and Col are the cursor's position, counted from 1.
	Row, Col int
	// Alt says the program holds the alternate screen.
	Alt bool
}

// View returns the screen as it is now.
func (s *Screen) View() View {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view()
}

func (s *Screen) view() View {
	if s.emu == nil {
		v := *s.final
		v.Lines = slices.Clone(v.Lines)
		return v
	}
	s.catchUpLocked()
	if s.emu != nil {
		s.metered(func() { s.feed.flush(s.emu) })
	}
	if s.emu == nil {
		return s.view()
	}
	v := View{Cols: s.cols, Rows: s.rows, Alt: s.feed.alt, Lines: make([]string, s.rows)}
	for y := range s.rows {
		v.Lines[y] = s.line(y)
	}
	pos := s.emu.CursorPosition()
	v.Row, v.Col = pos.Y+1, pos.X+1
	return v
}

// LastLine returns the text of the cursor's row: the prompt a program
// that waits for input shows.
func (s *Screen) LastLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.view()
	return v.Lines[v.Row-1]
}

// line returns row y as text, trailing blanks trimmed.
func (s *Screen) line(y int) string {
	var b strings.Builder
	for x := 0; x < s.cols; {
		c := s.emu.CellAt(x, y)
		switch {
		case c == nil || c.Content == "":
			b.WriteByte(' ')
			x++
		default:
			b.WriteString(c.Content)
			x += max(c.Width, 1)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// Close keeps the screen as it is and lets the emulator go, with the
// goroutine that passes its answers on: a job whose output has ended
// draws nothing more, and a finished job keeps only its rows.
func (s *Screen) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.emu == nil {
		return
	}
	v := s.view()
	if s.emu == nil {
		return // it gave up as it was brought up to date
	}
	s.final = &v
	s.undrawn = len(s.lag)
	s.drop()
}

// drop lets the emulator go, with the goroutine that passes its answers
// on.
func (s *Screen) drop() {
	// Closing the pipe of answers ends the goroutine that reads it.
	// (Emulator.Close would too, but it sets a flag that Read reads
	// unguarded.)
	if w, ok := s.emu.InputPipe().(io.Closer); ok {
		w.Close()
	}
	s.emu = nil
	s.feed.hold = nil
	s.lag = nil
}
