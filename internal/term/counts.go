package term

// A control sequence's count is obeyed by the emulator one unit at a
// time: CSI 65535 b writes the last character 65,535 times, scrolling
// the screen some 550 times on the way, about 18 ms of work for 8 bytes
// of output. No count past the size of the screen shows anything more
// (a screen has no more columns to insert, delete, erase or tab across,
// no more rows to insert, delete or scroll), so every count is held to
// the screen before the emulator sees it, and the work of a sequence is
// bounded by the screen, not by its parameter.
//
// The scrolling region and the margins are held to the screen too: the
// emulator takes a region past the screen's last row and then indexes
// past its rows when it scrolls it (a panic), where tmux holds the
// region to the screen.
//
// The repeat (REP) is held to the rest of the cursor's row, as tmux
// holds it: a repeat never wraps. The emulator would otherwise wrap and
// scroll, and tmux is the terminal the screens are checked against.

// countLimit is the largest count of a control sequence with final byte
// final that can still change the screen, for a screen of cols×rows with
// the cursor at column x (from 0); 0 when the sequence takes no count.
func countLimit(final byte, cols, rows, x int) int {
	switch final {
	case 'b': // REP: repeat the last character
		return max(1, cols-x)
	case '@', 'P', 'X', // insert, delete, erase characters
		'C', 'D', 'a', // cursor forward, back, position relative
		'G', '`', // column absolute
		'I', 'Z': // tab forward, back
		return cols
	case 'L', 'M', // insert, delete lines
		'S', 'T', // scroll up, down
		'A', 'B', 'E', 'F', 'e', // cursor up, down, next line, previous line, row relative
		'd', // row absolute
		'r': // the scrolling region's top and bottom rows
		return rows
	case 's': // the left and right margins (save the cursor without them)
		return cols
	case 'H', 'f': // cursor position: a row and a column
		return max(cols, rows)
	}
	return 0
}

// clampCounts rewrites seq, a whole control sequence ESC [ params final
// whose parameters are numbers only, with every number above limit
// replaced by limit. It returns seq itself when nothing is above it.
func clampCounts(seq []byte, limit int) []byte {
	params := seq[2 : len(seq)-1]
	over := false
	for n := range numbers(params) {
		if n > limit {
			over = true
			break
		}
	}
	if !over {
		return seq
	}
	out := make([]byte, 0, len(seq))
	out = append(out, seq[:2]...)
	start := 0
	for i := 0; i <= len(params); i++ {
		if i < len(params) && params[i] != ';' && params[i] != ':' {
			continue
		}
		if n, ok := number(params[start:i]); ok && n > limit {
			out = appendInt(out, limit)
		} else {
			out = append(out, params[start:i]...)
		}
		if i < len(params) {
			out = append(out, params[i])
		}
		start = i + 1
	}
	return append(out, seq[len(seq)-1])
}

// numbers yields the numbers among params (separated by ; and :); an
// empty one yields nothing.
func numbers(params []byte) func(func(int) bool) {
	return func(yield func(int) bool) {
		start := 0
		for i := 0; i <= len(params); i++ {
			if i < len(params) && params[i] != ';' && params[i] != ':' {
				continue
			}
			if n, ok := number(params[start:i]); ok && !yield(n) {
				return
			}
			start = i + 1
		}
	}
}

// maxNumber is where a parameter's value stops growing: the emulator's
// parser holds every parameter to 65,535.
const maxNumber = 1 << 16

// number reads a run of decimal digits, held to maxNumber.
func number(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = min(n*10+int(c-'0'), maxNumber)
	}
	return n, true
}

func appendInt(b []byte, n int) []byte {
	var d [20]byte
	i := len(d)
	for {
		i--
		d[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(b, d[i:]...)
}

// appendDigit adds the digit b to seq, a control sequence being read,
// without growing it for nothing: a zero that leads a number is replaced
// by the digit after it, and a number of five digits that grows is the
// largest the parser keeps (it holds each to 65,535). So no run of
// digits can push a count past the point where the sequence is still
// read whole and its counts held to the screen.
func appendDigit(seq []byte, b byte) []byte {
	run := 0
	for i := len(seq) - 1; i >= 2 && seq[i] >= '0' && seq[i] <= '9'; i-- {
		run++
	}
	switch {
	case run == 1 && seq[len(seq)-1] == '0':
		seq[len(seq)-1] = b
		return seq
	case run >= 5:
		return append(seq[:len(seq)-run], "65535"...)
	}
	return append(seq, b)
}
