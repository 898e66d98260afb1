package shell

import (
	"bytes"
	"fmt"
	"sync/atomic"
)

// A full-screen program (less, top, vim, a TUI) switches the terminal to
// its alternate screen and draws it with cursor movements: what reaches
// the model once the escape sequences are stripped is a stream of
// redraws, not the screen. No terminal emulator keeps that screen here;
// instead the job's results say that the program drew a full screen and
// how to get the same thing without one. With the default TERM=dumb
// most such programs do not switch (less warns that the terminal is not
// fully functional, top prints whole frames one after another); a
// command that sets TERM itself gets the notice.

// The sequences that enter and leave the alternate screen (xterm's, and
// the older forms).
var (
	altEnter = [][]byte{[]byte("\x1b[?1049h"), []byte("\x1b[?1047h"), []byte("\x1b[?47h")}
	altLeave = [][]byte{[]byte("\x1b[?1049l"), []byte("\x1b[?1047l"), []byte("\x1b[?47l")}
)

// altSeqMax is the length of the longest of those sequences.
const altSeqMax = len("\x1b[?1049h")

// A screenWatch follows whether the program on a job's terminal is on
// the alternate screen. scan is called by the reader goroutine only.
type screenWatch struct {
	on    atomic.Bool
	carry [altSeqMax - 1]byte // the end of the previous chunk
	n     int
}

// scan looks for the switches in the next chunk of raw terminal output,
// including one split across chunks.
func (w *screenWatch) scan(b []byte) {
	if w.n > 0 {
		var joint [2*altSeqMax - 2]byte
		k := copy(joint[:], w.carry[:w.n])
		k += copy(joint[k:], b[:min(len(b), altSeqMax-1)])
		w.update(joint[:k])
	}
	w.update(b)
	tail := b[max(0, len(b)-(altSeqMax-1)):]
	if len(tail) < altSeqMax-1 && w.n > 0 {
		// A short chunk: keep the end of the carry before it.
		keep := min(w.n, altSeqMax-1-len(tail))
		copy(w.carry[:], w.carry[w.n-keep:w.n])
		w.n = keep + copy(w.carry[keep:], tail)
		return
	}
	w.n = copy(w.carry[:], tail)
}

// update sets the state from the last switch in b, if any.
func (w *screenWatch) update(b []byte) {
	if bytes.IndexByte(b, 0x1b) < 0 {
		return
	}
	last := func(seqs [][]byte) int {
		at := -1
		for _, s := range seqs {
			at = max(at, bytes.LastIndex(b, s))
		}
		return at
	}
	enter, leave := last(altEnter), last(altLeave)
	switch {
	case enter > leave:
		w.on.Store(true)
	case leave > enter:
		w.on.Store(false)
	}
}

// screenNote is the notice of a job whose program is on the alternate
// screen, "" when it is not.
func screenNote(j *job) string {
	if j.screen == nil || !j.screen.on.Load() {
		return ""
	}
	return fmt.Sprintf("[pid %d drew a full screen (the terminal's alternate screen): above are its redraws with the cursor movements stripped, not the screen. "+
		"Prefer a form that prints plain text: cat, head or read instead of less or more; top -b -n 1; ps; git --no-pager; "+
		"sed, ed or a file tool instead of vim or nano. Keys still reach it with write_stdin (q, Esc, Ctrl-C); kill_pid=%d ends it.]", j.pid, j.pid)
}
