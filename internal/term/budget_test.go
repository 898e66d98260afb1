package term

import (
	"slices"
	"testing"
	"time"
)

// feedAll writes data as a job's reader does, 4 KiB at a time.
func feedAll(s *Screen, data []byte) {
	for p := data; len(p) > 0; {
		n := min(len(p), 4096)
		s.Write(p[:n])
		p = p[n:]
	}
}

// A session's screens spend from one budget: past it their output is
// held, undrawn, and what the emulators spent stays within the bucket
// (its burst, what it earned meanwhile, and one piece of overdraft a
// screen); as the budget fills again, the screens catch up and show what
// an unbounded screen shows for the same output.
func TestBudgetHoldsOutputAndCatchesUp(t *testing.T) {
	defer func(g, p time.Duration) { WorkGrace, WorkPerByte = g, p }(WorkGrace, WorkPerByte)
	WorkGrace, WorkPerByte = time.Minute, time.Second // the ceiling is not what is tested
	flood := repeated("\x1b[5H\x1b[Lxy\x1b[Mzw", 96<<10)
	flood = append(flood, "\x1b[Hthe end"...)

	free := New(120, 40, nil, nil)
	defer free.Close()
	start := time.Now()
	feedAll(free, flood)
	want := free.View()
	_, _, w := free.GaveUp()
	perPiece := time.Duration(float64(w.CPU) / float64(w.Bytes) * meterPiece)
	t.Logf("unbounded: %v in %v", w, time.Since(start))

	// A burst a tenth of what the flood costs, earning next to nothing
	// while the floods are fed, so that they must lag however slow the
	// machine is.
	b := newBudget(time.Microsecond, w.CPU/10)
	a1, a2 := New(120, 40, nil, b), New(120, 40, nil, b)
	defer a1.Close()
	defer a2.Close()
	start = time.Now()
	feedAll(a1, flood)
	feedAll(a2, flood)
	held1, _ := a1.Lag()
	held2, _ := a2.Lag()
	bound := w.CPU/10 + time.Duration(float64(time.Since(start))*float64(b.rate)/float64(time.Second)) + 2*perPiece
	if spent := b.Spent(); spent > bound {
		t.Errorf("the screens spent %v of a budget that allowed %v", spent, bound)
	}
	if held1+held2 == 0 {
		t.Fatalf("two floods, each ten times the budget, held nothing back (spent %v)", b.Spent())
	}
	if a1.FellBehind() || a2.FellBehind() {
		t.Fatal("a screen gave up within MaxLag")
	}
	t.Logf("held back: %d and %d bytes; spent %v", held1, held2, b.Spent())

	// Each look draws what the budget allows, now a second of wall time
	// earning what the flood costs; in the end both screens are what the
	// unbounded one is.
	b.mu.Lock()
	b.rate = w.CPU
	b.mu.Unlock()
	deadline := time.Now().Add(time.Minute)
	for {
		h1, _ := a1.Lag()
		h2, _ := a2.Lag()
		if h1+h2 == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d and %d bytes behind after a minute", h1, h2)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, s := range []*Screen{a1, a2} {
		if v := s.View(); !slices.Equal(v.Lines, want.Lines) || v.Row != want.Row || v.Col != want.Col {
			t.Errorf("the screen that lagged differs from the unbounded one:\n%q\n%q", v.Lines[:6], want.Lines[:6])
		}
	}
}

// A screen that falls more than MaxLag behind gives up, as one past its
// ceiling does; one closed while behind keeps what it drew and says what
// it never drew.
func TestLagPastMaxGivesUp(t *testing.T) {
	defer func(m int) { MaxLag = m }(MaxLag)
	MaxLag = 16 << 10
	b := newBudget(time.Nanosecond, time.Nanosecond)
	b.spend(time.Hour) // spent for an hour to come
	s := New(120, 40, nil, b)
	defer s.Close()
	feedAll(s, repeated("\x1b[M", 12<<10))
	if held, _ := s.Lag(); held != 12<<10 || s.FellBehind() {
		t.Fatalf("held %d, fell behind %v", held, s.FellBehind())
	}
	s.Close()
	if held, _ := s.Lag(); held != 12<<10 {
		t.Errorf("a closed screen reports %d bytes never drawn, want %d", held, 12<<10)
	}

	s = New(120, 40, nil, b)
	defer s.Close()
	feedAll(s, repeated("\x1b[M", 20<<10))
	if gave, _, _ := s.GaveUp(); !gave || !s.FellBehind() {
		t.Errorf("20 KiB behind with MaxLag 16 KiB: gave up %v, fell behind %v", gave, s.FellBehind())
	}
	if s.Active() {
		t.Error("a screen that gave up is active")
	}
}
