package term

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// direct feeds the emulator byte for byte as it comes, with no holding.
func direct(cols, rows int, chunks [][]byte) View {
	s := New(cols, rows, nil, nil)
	defer s.Close()
	for _, c := range chunks {
		s.emu.Write(c)
	}
	v := View{Cols: cols, Rows: rows, Lines: make([]string, rows)}
	for y := range rows {
		v.Lines[y] = s.line(y)
	}
	pos := s.emu.CursorPosition()
	v.Row, v.Col = pos.Y+1, pos.X+1
	return v
}

func held(cols, rows int, chunks [][]byte) View {
	s := New(cols, rows, nil, nil)
	defer s.Close()
	for _, c := range chunks {
		s.Write(c)
	}
	v := s.View()
	v.Alt = false
	return v
}

// stream makes output of the kinds a terminal sees: lines, colours,
// progress bars, cursor movements, a scrolling region, the alternate
// screen, wide characters; split into chunks at random.
func stream(r *rand.Rand) [][]byte {
	var b strings.Builder
	pieces := []func(){
		func() {
			for range r.IntN(200) {
				fmt.Fprintf(&b, "line %d %s\r\n", r.IntN(1e6), strings.Repeat("x", r.IntN(150)))
			}
		},
		func() { fmt.Fprintf(&b, "\x1b[31mred\x1b[m\x1b[K plain\r\n") },
		func() { fmt.Fprintf(&b, "10%%\r20%%\r30%%") },
		func() { fmt.Fprintf(&b, "\x1b[%d;%dHat", 1+r.IntN(45), 1+r.IntN(130)) },
		func() { fmt.Fprintf(&b, "\x1b[2J\x1b[H") },
		func() { fmt.Fprintf(&b, "\x1b[3;10r") },
		func() { fmt.Fprintf(&b, "\x1b[r") },
		func() { fmt.Fprintf(&b, "\x1b[?1049h") },
		func() { fmt.Fprintf(&b, "\x1b[?1049l") },
		func() { fmt.Fprintf(&b, "wide 日本語 %d\n", r.IntN(9)) },
		func() { fmt.Fprintf(&b, "no cr\n") },
		func() { fmt.Fprintf(&b, "\x1b]0;title\x07") },
		func() { fmt.Fprintf(&b, "\x1b[A\x1b[2K") },
		func() { fmt.Fprintf(&b, "tab\there\x08\x08X") },
	}
	for range 30 {
		pieces[r.IntN(len(pieces))]()
	}
	all := []byte(b.String())
	var chunks [][]byte
	for len(all) > 0 {
		n := min(len(all), 1+r.IntN(5000))
		chunks = append(chunks, all[:n])
		all = all[n:]
	}
	return chunks
}

// TestHeldTextDrawsTheSameScreen: dropping the held text that scrolled
// away leaves the screen and the cursor exactly as feeding it all does.
func TestHeldTextDrawsTheSameScreen(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 7))
		chunks := stream(r)
		cols, rows := 60+r.IntN(80), 10+r.IntN(35)
		want, got := direct(cols, rows, chunks), held(cols, rows, chunks)
		if !slices.Equal(want.Lines, got.Lines) || want.Row != got.Row || want.Col != got.Col {
			t.Fatalf("seed %d (%d×%d): held screen differs\nwant cursor %d,%d:\n%s\ngot cursor %d,%d:\n%s",
				seed, cols, rows, want.Row, want.Col, strings.Join(want.Lines, "|\n"), got.Row, got.Col, strings.Join(got.Lines, "|\n"))
		}
	}
}
