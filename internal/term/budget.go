package term

import (
	"fmt"
	"sync"
	"time"
)

// One session's terminals share one budget of emulator time, so that a
// session whose program floods its terminal with costly sequences
// (inserted and deleted lines, scrolls: some 3 µs a byte, 250 KB/s keeps
// a core busy, while each stays under a screen's own ceiling, work.go)
// takes a bounded share of the server's processor, and every other
// session keeps the rest.
//
// The budget is a bucket of processor time: it fills at BudgetPerSecond
// of emulator time per second of wall time, up to BudgetBurst. A screen
// feeds its emulator only while the bucket holds time; past it, the
// program's output is held, in order, and the screen lags behind the
// stream (which is read and spilled whole as ever). The held bytes are
// fed as the bucket fills again, on the next output or the next look.
// A screen that falls more than MaxLag bytes behind gives up as a screen
// past its ceiling does: its output is read as text from there. 256 KiB
// is at most some 8 s of lag at the budget's rate for the costliest
// output a screen keeps (3 µs a byte), under a second for a program
// that draws screens: a screen further behind tells the model little.
//
// A tenth of a core is some ten times what a full-screen program costs
// while it is used (vim, less, htop, a progress display: well under a
// microsecond a byte, a few kilobytes a redraw), and the burst covers a
// program that draws its first screens, or 130 MB of plain text, at once.
var (
	BudgetPerSecond = 100 * time.Millisecond
	BudgetBurst     = 500 * time.Millisecond
	MaxLag          = 256 << 10
)

// A Budget is the emulator time the terminals of one session may spend.
// Its methods may be called from any goroutine; a nil *Budget bounds
// nothing.
type Budget struct {
	mu     sync.Mutex
	rate   time.Duration // per second of wall time
	burst  time.Duration
	tokens time.Duration
	last   time.Time
	spent  time.Duration
}

// NewBudget returns a full budget of BudgetPerSecond a second, up to
// BudgetBurst.
func NewBudget() *Budget {
	return newBudget(BudgetPerSecond*raceSlowdown, BudgetBurst*raceSlowdown)
}

func newBudget(rate, burst time.Duration) *Budget {
	return &Budget{rate: rate, burst: burst, tokens: burst, last: time.Now()}
}

// String names the budget as a notice says it.
func (b *Budget) String() string {
	if b == nil {
		return "no budget"
	}
	return fmt.Sprintf("%v of processor time a second", b.rate/raceSlowdown)
}

// refill adds the time earned since the last look. The caller holds mu.
func (b *Budget) refill() {
	now := time.Now()
	if d := now.Sub(b.last); d > 0 {
		b.tokens = min(b.burst, b.tokens+time.Duration(float64(d)*float64(b.rate)/float64(time.Second)))
	}
	b.last = now
}

// available reports whether the emulators may work now: the bucket holds
// time. One piece may then overdraw it (meterPiece bounds that).
func (b *Budget) available() bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	return b.tokens > 0
}

// spend takes d from the bucket.
func (b *Budget) spend(d time.Duration) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	b.tokens -= d
	b.spent += d
}

// Spent is the emulator time spent from the budget in all.
func (b *Budget) Spent() time.Duration {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.spent
}

// Allows is the most the budget lets emulators spend over wall time from
// full: its burst and what it earns meanwhile.
func (b *Budget) Allows(wall time.Duration) time.Duration {
	if b == nil {
		return 1<<63 - 1
	}
	return b.burst + time.Duration(float64(wall)*float64(b.rate)/float64(time.Second))
}

// Overdraft is the most one piece fed after the bucket's last time can
// cost past it, for a test's bound: a piece of the costliest output the
// ceiling lets a screen keep.
func Overdraft() time.Duration {
	return meterPiece * WorkPerByte * raceSlowdown * 2
}
