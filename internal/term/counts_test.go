package term

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
)

// A recorder is an emulator that keeps every byte it is fed.
type recorder struct {
	*vt.Emulator
	fed []byte
}

func (r *recorder) Write(p []byte) (int, error) {
	r.fed = append(r.fed, p...)
	return r.Emulator.Write(p)
}

// feedRecorded feeds data to a feeder of cols×rows in chunks of chunk
// bytes and returns the emulator, with what reached it.
func feedRecorded(data []byte, cols, rows, chunk int) *recorder {
	r := &recorder{Emulator: newEmulator(cols, rows)}
	f := feeder{cols: cols, rows: rows}
	for p := data; len(p) > 0; {
		n := min(len(p), chunk)
		f.write(r, p[:n])
		p = p[n:]
	}
	f.flush(r)
	return r
}

// countsOver returns the control sequences in fed whose count (their
// first two numbers) is past what the screen can show: its rows or
// columns, or, for a sequence too long to be read whole, 255.
func countsOver(fed []byte, cols, rows int) []string {
	var bad []string
	for i := 0; i < len(fed); i++ {
		if fed[i] != 0x1b || i+1 >= len(fed) || fed[i+1] != '[' {
			continue
		}
		j := i + 2
		for j < len(fed) && (fed[j] < 0x40 || fed[j] > 0x7e) && fed[j] != 0x1b && fed[j] != 0x18 && fed[j] != 0x1a {
			j++
		}
		if j >= len(fed) || fed[j] < 0x40 || fed[j] > 0x7e {
			continue
		}
		params, final := fed[i+2:j], fed[j]
		limit := countLimit(final, cols, rows, 0)
		if limit == 0 || !simpleParams(params) {
			continue
		}
		if len(fed[i:j+1]) > maxSeq {
			limit = max(cols, rows, 255)
		}
		k := 0
		for n := range numbers(params) {
			if k++; k > 2 {
				break
			}
			if n > limit {
				bad = append(bad, fmt.Sprintf("%q", fed[i:j+1]))
			}
		}
	}
	return bad
}

// countedFinals are the final bytes of the sequences that take a count.
const countedFinals = "b@PXCDaG`IZLMSTABEFedHfrs"

// Every count that reaches the emulator is held to the screen, however
// the sequence spells it: the largest value, leading zeros, more digits
// than a number holds, a count followed by many parameters, a sequence
// split across reads.
func TestCountsHeldToScreen(t *testing.T) {
	spellings := []string{"65535", "99999999999", strings.Repeat("0", 300) + "65535", "65535;1", "65535" + strings.Repeat(";1", 80), "1;65535", "65535:2"}
	for _, final := range []byte(countedFinals) {
		for _, sp := range spellings {
			data := []byte("x\x1b[" + sp + string(final) + "y")
			for _, chunk := range []int{1, 3, 4096} {
				r := feedRecorded(data, 80, 24, chunk)
				if bad := countsOver(r.fed, 80, 24); len(bad) > 0 {
					t.Errorf("CSI %.20s… %c in reads of %d: the emulator was fed %v", sp, final, chunk, bad)
				}
			}
		}
	}
}

// screenOf reads an emulator's rows and cursor.
func screenOf(e *vt.Emulator, cols, rows int) (lines []string, row, col int) {
	s := &Screen{emu: e, cols: cols, rows: rows}
	for y := range rows {
		lines = append(lines, s.line(y))
	}
	pos := e.CursorPosition()
	return lines, pos.Y + 1, pos.X + 1
}

// Holding a count to the screen changes nothing a person sees: random
// drawing with every counted sequence but the repeat (which tmux holds
// to its row, below), at counts from 0 to past the largest, leaves the
// same screen as the emulator fed the counts as they were.
func TestCountsChangeNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	finals := strings.NewReplacer("b", "", "r", "", "s", "").Replace(countedFinals)
	for round := range 200 {
		var b strings.Builder
		if round%2 == 0 {
			b.WriteString("\x1b[?1049h")
		}
		if round%3 == 0 {
			fmt.Fprintf(&b, "\x1b[%d;%dr", 1+r.IntN(5), 7+r.IntN(6))
		}
		for range 40 {
			switch r.IntN(3) {
			case 0:
				fmt.Fprintf(&b, "word%d ", r.IntN(1000))
			case 1:
				b.WriteString("\r\n")
			default:
				n := []int{0, 1, 2, r.IntN(30), r.IntN(200), 65535, 70000}[r.IntN(7)]
				fmt.Fprintf(&b, "\x1b[%d%c", n, finals[r.IntN(len(finals))])
			}
		}
		data := []byte(b.String())
		want := newEmulator(40, 12)
		want.Write(data)
		got := feedRecorded(data, 40, 12, 1+r.IntN(64))
		wl, wr, wc := screenOf(want, 40, 12)
		gl, gr, gc := screenOf(got.Emulator, 40, 12)
		if !slices.Equal(wl, gl) || wr != gr || wc != gc {
			t.Fatalf("round %d: %q\nheld: %q at %d,%d\nas fed: %q at %d,%d", round, data, gl, gr, gc, wl, wr, wc)
		}
	}
}

// The repeat is held to the rest of the cursor's row, as tmux holds it:
// tmux 3.3a shows these rows for this output at 20×5.
func TestRepeatHeldToRow(t *testing.T) {
	out := "\x1b[?1049h\x1b[Habc\x1b[65535bZ\r\n" + "\x1b[3;18Hxy\x1b[5bW" + "\x1b[5;1Hq\x1b[19bR"
	s := New(20, 5, nil, nil)
	defer s.Close()
	s.Write([]byte(out))
	want := []string{"Z", "                 xyy", "W", strings.Repeat("q", 20), "R"}
	if v := s.View(); !slices.Equal(v.Lines, want) {
		t.Errorf("rows %q, want %q (tmux's)", v.Lines, want)
	}
}

// cpuFor feeds data to a new screen of 120×40 in reads of 4 KiB and
// returns what the emulator cost, and whether it gave up.
func cpuFor(data []byte) (Work, bool) {
	s := New(120, 40, nil, nil)
	defer s.Close()
	for p := data; len(p) > 0; {
		n := min(len(p), 4096)
		s.Write(p[:n])
		p = p[n:]
	}
	s.View()
	gave, _, w := s.GaveUp()
	return w, gave
}

func repeated(seq string, size int) []byte {
	return bytes.Repeat([]byte(seq), size/len(seq)+1)[:size]
}

// 30 KB of any counted sequence at the largest count costs the emulator
// a bounded time: the repeat cost 69 s of processor time for 30 KB
// before counts were held (and 3 ms a byte).
func TestCountedFloodsAreCheap(t *testing.T) {
	for _, final := range []byte(countedFinals) {
		seq := "\x1b[65535" + string(final)
		if final == 'b' {
			seq = "x" + seq
		}
		w, _ := cpuFor(repeated(seq, 30_000))
		if limit := time.Duration(raceSlowdown) * 2 * time.Second; w.CPU > limit {
			t.Errorf("30 KB of %q: %v, over %v", seq, w, limit)
		}
		t.Logf("30 KB of %q: %v", seq, w)
	}
}

// Past the ceiling the screen gives up: a flood of line deletions, each
// of which moves the whole screen, is dropped as a screen, while a
// program that draws screens is not. What a byte costs depends on the
// machine, so the ceiling here is set from the flood's own cost in this
// run (half of it a byte); what is asserted is the ratio between the
// two kinds of output, and that the screen stops at its ceiling.
func TestWorkCeiling(t *testing.T) {
	flood := repeated("\x1b[M", 64<<10)
	var redraw strings.Builder
	for redraw.Len() < 512<<10 {
		redraw.WriteString("\x1b[H\x1b[2J")
		for r := 1; r <= 40; r++ {
			fmt.Fprintf(&redraw, "\x1b[%d;1H\x1b[1;32m%3d\x1b[m %s\x1b[K", r, r, strings.Repeat("some text ", 11))
		}
	}
	defer func(g, p time.Duration) { WorkGrace, WorkPerByte = g, p }(WorkGrace, WorkPerByte)
	t.Logf("the production ceiling is %v a byte", time.Duration(raceSlowdown)*WorkPerByte)
	WorkGrace, WorkPerByte = time.Minute, time.Second
	fw, _ := cpuFor(flood)
	rw, _ := cpuFor([]byte(redraw.String()))
	perFlood := fw.CPU / time.Duration(fw.Bytes)
	perRedraw := rw.CPU / time.Duration(rw.Bytes)
	t.Logf("line deletions: %v (%v a byte); full redraws: %v (%v a byte)",
		fw, perFlood, rw, perRedraw)
	if perRedraw*5 > perFlood {
		t.Fatalf("full redraws cost %v a byte, line deletions %v: the ceiling cannot tell them apart", perRedraw, perFlood)
	}

	WorkGrace = 20 * time.Millisecond
	WorkPerByte = perFlood / 2 / raceSlowdown
	w, gave := cpuFor(flood)
	if !gave {
		t.Errorf("64 KiB of line deletions: %v, and the screen did not give up at %v a byte", w, WorkPerByte)
	}
	// It stops within a piece of the ceiling (a piece costs perFlood a byte).
	if max := ceiling(w.Bytes, 120, 40) + 2*meterPiece*perFlood; w.CPU > max {
		t.Errorf("the screen gave up after %v, past %v", w, max)
	}
	if w, gave := cpuFor([]byte(redraw.String())); gave {
		t.Errorf("512 KiB of full redraws gave up at %v a byte: %v", WorkPerByte, w)
	}
	s := New(120, 40, nil, nil)
	defer s.Close()
	s.Write([]byte("\x1b[?1049h"))
	s.Write(flood)
	if s.Active() {
		t.Error("a screen that gave up is still active")
	}
	if left, _ := s.Write([]byte("\x1b[?1049lmore")); left || s.Active() {
		t.Error("a screen that gave up took more output")
	}
}

// FuzzFeeder: whatever the output, no count past the screen reaches the
// emulator, and the screen has its size.
func FuzzFeeder(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "feeder", "*"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("x\x1b[65535b\x1b[0000000000000000000000000000000000000000000000000000000000000000000000000065535b"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := feedRecorded(data, 30, 8, 7)
		if bad := countsOver(r.fed, 30, 8); len(bad) > 0 {
			t.Errorf("fed %v", bad)
		}
		if lines, _, _ := screenOf(r.Emulator, 30, 8); len(lines) != 8 {
			t.Errorf("%d rows", len(lines))
		}
	})
}

// A scrolling region past the screen's last row is held to the screen:
// the emulator took it, and scrolling it then indexed past its rows, a
// panic in the goroutine that reads the job's output, which ended the
// server.
func TestRegionPastTheScreen(t *testing.T) {
	s := New(40, 12, nil, nil)
	defer s.Close()
	s.Write([]byte("\x1b[1;30r\x1b[2S\x1b[30;1H\x1b[3T\x1b[L\x1b[Mstill here"))
	if gave, broken, _ := s.GaveUp(); gave || broken {
		t.Errorf("the screen gave up (broken: %v)", broken)
	}
	if !strings.Contains(strings.Join(s.View().Lines, "\n"), "still here") {
		t.Errorf("rows %q", s.View().Lines)
	}
}

// An emulator that fails on the program's output gives up the screen,
// not the server.
func TestEmulatorFailureGivesUp(t *testing.T) {
	s := New(40, 12, nil, nil)
	defer s.Close()
	s.mu.Lock()
	s.metered(func() { panic("an emulator bug") })
	s.mu.Unlock()
	if gave, broken, _ := s.GaveUp(); !gave || !broken || s.Active() {
		t.Errorf("gave up %v, broken %v, active %v", gave, broken, s.Active())
	}
}
