package term

import (
	"slices"
	"testing"
)

// The screen reads back what was drawn: the alternate screen, cursor
// addressing, wide characters; leaving the alternate screen is reported
// with the offset after the switch; a closed screen keeps its rows.
func TestScreenView(t *testing.T) {
	s := New(20, 4, nil, nil)
	out := []byte("before\r\n\x1b[?1049h\x1b[2J\x1b[3;5Hthird\x1b[1;1H日本 wide")
	if left, _ := s.Write(out); left || !s.Active() {
		t.Fatalf("entered: left %v, active %v", left, s.Active())
	}
	v := s.View()
	if want := []string{"日本 wide", "", "    third", ""}; !slices.Equal(v.Lines, want) || v.Row != 1 || v.Col != 10 || !v.Alt {
		t.Fatalf("alternate screen: %q cursor %d,%d alt %v", v.Lines, v.Row, v.Col, v.Alt)
	}
	tail := []byte("x\x1b[?1049lafter")
	left, at := s.Write(tail)
	if !left || string(tail[at:]) != "after" || s.Active() {
		t.Fatalf("left %v at %d (%q), active %v", left, at, tail[at:], s.Active())
	}
	if v := s.View(); v.Lines[0] != "before" || v.Alt {
		t.Fatalf("main screen: %q", v.Lines)
	}
	if s.LastLine() != "after" {
		t.Errorf("last line %q", s.LastLine())
	}
	s.Close()
	s.Write([]byte("\r\nignored"))
	if v := s.View(); v.Lines[0] != "before" || v.Lines[1] != "after" || s.LastLine() != "after" {
		t.Errorf("closed: %q", v.Lines)
	}
}
