package shell

import (
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/term"
)

func view(lines ...string) term.View {
	v := term.View{Cols: 20, Rows: 5, Row: 2, Col: 3, Alt: true, Lines: make([]string, 5)}
	copy(v.Lines, lines)
	return v
}

// A whole screen: the header, then the rows down to the last that is not
// empty; a later look: the rows that changed, numbered.
func TestRenderScreen(t *testing.T) {
	v := view("top", "", "middle")
	if got, want := renderScreen(v, nil, 0), "[screen 20×5, cursor at row 2 col 3]\ntop\n\nmiddle\n"; got != want {
		t.Errorf("whole:\n%q\nwant\n%q", got, want)
	}
	w := view("top", "new", "middle", "", "last")
	want := "[screen 20×5, cursor at row 2 col 3]\n" +
		`[2 of 5 rows changed since the last look, numbered; screen: "full" shows every row]` + "\n2: new\n5: last\n"
	if got := renderScreen(w, &v, 0); got != want {
		t.Errorf("changes:\n%q\nwant\n%q", got, want)
	}
	if got := renderScreen(v, &v, 0); !strings.HasSuffix(got, "[no row changed since the last look]\n") {
		t.Errorf("no change: %q", got)
	}
}

// The result budget holds: the rows past it are left out, and said.
func TestRenderScreenWithinBudget(t *testing.T) {
	v := term.View{Cols: 100, Rows: 40, Row: 1, Col: 1, Lines: make([]string, 40)}
	for i := range v.Lines {
		v.Lines[i] = strings.Repeat("x", 100)
	}
	got := renderScreen(v, nil, 1500)
	if len(got) > 1500 || !strings.Contains(got, "not shown: over the result budget]") {
		t.Errorf("%d bytes:\n%s", len(got), got)
	}
}
