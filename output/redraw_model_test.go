package output

import (
	"strconv"
	"strings"
	"testing"
)

// The reference model of redraws: a screen of lines and a cursor, applying
// the sequences the Sanitizer honours, written for clarity over speed. It
// holds every line, so it agrees with the Sanitizer while the input stays
// within the hold (holdRows lines, holdBytes bytes).

type refScreen struct {
	out      strings.Builder // lines given up by a write above the screen
	lines    [][]rune
	row, col int
	tooBig   bool // the screen outgrew the Sanitizer's hold
}

func newRefScreen() *refScreen { return &refScreen{lines: [][]rune{nil}} }

func (m *refScreen) last() int { return len(m.lines) - 1 }

func (m *refScreen) grow(row int) {
	for len(m.lines) <= row {
		m.lines = append(m.lines, nil)
	}
	size := len(m.lines) - 1
	for _, l := range m.lines {
		size += len(string(l))
	}
	if len(m.lines) > holdRows+1 || size > holdBytes/2 {
		m.tooBig = true
	}
}

func (m *refScreen) char(r rune) {
	if m.row < 0 { // above the screen: what it shows is given up, below
		for i, l := range m.lines {
			m.out.WriteString(string(l))
			if i < m.last() || len(l) > 0 {
				m.out.WriteByte('\n')
			}
		}
		m.lines, m.row = [][]rune{nil}, 0
	}
	m.grow(m.row)
	l := m.lines[m.row]
	for len(l) < m.col {
		l = append(l, ' ')
	}
	if m.col < len(l) {
		l[m.col] = r
	} else {
		l = append(l, r)
	}
	m.lines[m.row] = l
	m.col++
	m.grow(m.row)
}

func (m *refScreen) newline() {
	m.row++
	m.col = 0
	if m.row >= 0 {
		m.grow(m.row)
	}
}

// csi applies ESC [ params final.
func (m *refScreen) csi(params string, final byte) {
	ps := strings.Split(params, ";")
	p := func(i int) int {
		if i >= len(ps) {
			return 0
		}
		n, _ := strconv.Atoi(ps[i])
		return min(n, maxCursor)
	}
	n := max(p(0), 1)
	switch final {
	case 'A', 'F':
		m.row = max(m.row-n, -maxCursor)
	case 'B', 'E':
		m.row = min(m.row+n, m.last()+holdRows)
	case 'C':
		m.col = min(m.col+n, max(m.col, maxColumn))
	case 'D':
		m.col = max(m.col-n, 0)
	case 'G':
		m.col = min(n-1, maxColumn)
	case 'H':
		m.col = min(max(p(1), 1)-1, maxColumn)
		m.row = m.last() + 1
		if len(m.lines[m.last()]) == 0 {
			m.row = m.last()
		}
	case 'K':
		if m.row < 0 || m.row > m.last() {
			return
		}
		l := m.lines[m.row]
		switch p(0) {
		case 0:
			m.lines[m.row] = l[:min(m.col, len(l))]
		case 1:
			for i := 0; i <= m.col && i < len(l); i++ {
				l[i] = ' '
			}
		case 2:
			m.lines[m.row] = nil
		}
		return
	case 'J':
		switch {
		case p(0) != 0 || m.row > m.last():
		case m.row < 0:
			m.lines = [][]rune{nil}
		default:
			m.lines[m.row] = m.lines[m.row][:min(m.col, len(m.lines[m.row]))]
			m.lines = m.lines[:m.row+1]
		}
		return
	}
	if final == 'E' || final == 'F' {
		m.col = 0
	}
}

func (m *refScreen) String() string {
	var b strings.Builder
	b.WriteString(m.out.String())
	for i, l := range m.lines {
		b.WriteString(string(l))
		if i < m.last() {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// redrawTokens are the pieces a redraw input is made of.
var redrawTokens = []string{
	"a", "b", "x", "é", "😀", "\t", "status ", "\n", "\n", "\r", "\r\n",
	"\x1b[A", "\x1b[2A", "\x1b[3A", "\x1b[B", "\x1b[2B", "\x1b[C", "\x1b[3D", "\x1b[E", "\x1b[2F", "\x1b[F",
	"\x1b[G", "\x1b[4G", "\x1b[H", "\x1b[2;5H",
	"\x1b[K", "\x1b[0K", "\x1b[1K", "\x1b[2K", "\x1b[J", "\x1b[0J", "\x1b[2J",
	"\x1b[31m", "\x1b[?25l", "\x1b7", "\x1b]0;title\x07", "\x00",
}

// redrawInput turns fuzz bytes into an input of redraw tokens and the
// model's view of it.
func redrawInput(ops []byte) (string, *refScreen) {
	var in strings.Builder
	m := newRefScreen()
	for _, op := range ops {
		tok := redrawTokens[int(op)%len(redrawTokens)]
		in.WriteString(tok)
		switch {
		case tok == "\r\n":
			m.newline()
		case tok == "\r":
			m.col = 0 // a terminal's carriage return: text after it overwrites
		case tok == "\n":
			m.newline()
		case strings.HasPrefix(tok, "\x1b["):
			m.csi(tok[2:len(tok)-1], tok[len(tok)-1])
		case tok[0] == 0x1b || tok[0] == 0:
		default:
			for _, r := range tok {
				m.char(r)
			}
		}
	}
	return in.String(), m
}

// checkRedraw checks the Sanitizer against the model on the input that
// ops make, written at once and split.
func checkRedraw(t *testing.T, ops, sizes []byte) {
	t.Helper()
	in, m := redrawInput(ops[:min(len(ops), 300)])
	if m.tooBig {
		return
	}
	want := m.String()
	if got := string(sanitizeAll([]byte(in))); got != want {
		t.Fatalf("sanitize(%q):\n got  %q\n want %q", in, got, want)
	}
	if got := sanitizeChunks([]byte(in), sizes); got != want {
		t.Fatalf("sanitize(%q) split by %v:\n got  %q\n want %q", in, sizes, got, want)
	}
}

func sanitizeChunks(in, sizes []byte) string {
	var out []byte
	s := newSanitizer(func(b []byte) { out = append(out, b...) })
	for i, rest := 0, in; len(rest) > 0; i++ {
		n := len(rest)
		if len(sizes) > 0 {
			n = min(n, int(sizes[i%len(sizes)])%37+1)
		}
		s.Write(rest[:n])
		rest = rest[n:]
	}
	s.Close()
	return string(out)
}

// TestRedrawModelAgrees runs the model check on inputs of every pair and
// triple of tokens after a few lines, so plain `go test` covers each
// sequence in each position.
func TestRedrawModelAgrees(t *testing.T) {
	prefix := []byte{0, 7, 1, 7, 2} // "a\nb\nx"
	n := byte(len(redrawTokens))
	for i := byte(0); i < n; i++ {
		for j := byte(0); j < n; j++ {
			checkRedraw(t, append(append([]byte{}, prefix...), i, j, 0, i), []byte{3, 1})
		}
	}
}
