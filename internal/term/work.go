package term

import (
	"fmt"
	"time"
)

// The emulator's work is bounded per sequence (counts.go), but a stream
// of sequences that each cost a whole screen (erase it, delete a line,
// scroll it) still costs tens of microseconds a byte, on the server's
// processor, at the pace the program writes. So a screen has a ceiling:
// past WorkGrace of processor time, the emulator may spend WorkPerByte
// for each byte fed on average. A screen that passes it gives up: the
// emulator is dropped, and the job's output is read as the text stream
// it always also is (its spill file holds every byte). Programs that
// draw screens (vim, less, htop, man) cost well under a microsecond a
// byte; a flood of plain lines is held, and costs less. A screen larger
// than the default's 120×40 has a ceiling as much higher: every sequence
// that moves or clears it costs as much more.
var (
	WorkGrace   = 250 * time.Millisecond
	WorkPerByte = 5 * time.Microsecond
)

// meterPiece is how much output is fed between two looks at the cost.
const meterPiece = 4 << 10

// Work is what a screen's emulator cost: the processor time it took and
// the bytes it was fed.
type Work struct {
	CPU   time.Duration
	Bytes int64
}

func (w Work) String() string {
	return fmt.Sprintf("%s of processor time for %d bytes", w.CPU.Round(time.Millisecond), w.Bytes)
}

// ceiling is the most a screen of cols×rows may have cost for bytes fed.
func ceiling(bytes int64, cols, rows int) time.Duration {
	scale := max(1, float64(cols*rows)/float64(DefaultCols*DefaultRows))
	return time.Duration(float64(WorkGrace+time.Duration(bytes)*WorkPerByte) * scale * raceSlowdown)
}

// metered runs f, which feeds the emulator, and counts its cost; past
// the ceiling, the screen gives up. The caller holds s.mu.
func (s *Screen) metered(f func()) {
	if s.emu == nil {
		return
	}
	panicked := true
	spent := cpuOf(func() {
		// The emulator is a library that indexes slices by what the
		// program wrote: a sequence it mishandles gives up the screen,
		// never the server with every session in it.
		defer func() {
			if recover() != nil {
				s.broken = true
			}
		}()
		f()
		panicked = false
	})
	s.work.CPU += spent
	s.budget.spend(spent)
	if panicked || s.work.CPU > ceiling(s.work.Bytes, s.cols, s.rows) {
		s.giveUp()
	}
}

// giveUp drops the emulator of a screen whose work passed the ceiling:
// the screen is no longer what is read, and nothing is fed to it again.
func (s *Screen) giveUp() {
	s.gaveUp = true
	s.final = &View{Cols: s.cols, Rows: s.rows, Lines: make([]string, s.rows), Row: 1, Col: 1}
	s.drop()
	s.feed.alt, s.feed.drawn = false, false
}

// GaveUp reports whether the screen gave up: its work passed the
// ceiling, or (broken) the emulator failed on the program's output; and
// what it had cost by then.
func (s *Screen) GaveUp() (gave, broken bool, w Work) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gaveUp, s.broken, s.work
}
